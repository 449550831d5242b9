import type { ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PruneResult } from '../../shared/contract/values.js';
import type { SnapshotInfo, VerifyResult, VersionInfo } from '../../shared/history.js';
import { startSwift, type PrivateSwift } from '../../scripts/swift/privateSwift.js';
import { cliJson, finished, runCli, startCli } from '../helpers/runCli.js';
import { thinnableHistory } from '../history/retention/pruneHelpers.js';
import type { ProvidedSwift } from './swiftSetup.js';
import { describeWithSwift, newBucket, swiftEnv } from './swiftTestKit.js';

// A prune that moves what the policy thins to a remote (retention.archiveToRemote, prune
// --archive-to) against a real Swift: the rows stay, the blobs only thinned versions name are
// pushed and then leave this disk, and an archived version reads back byte for byte (fetched and
// hash-checked). A push that fails (the server stopped) moves nothing; a prune killed after the
// push or between two removals loses nothing, and the next prune finishes.

const contents = (i: number) => `archived version ${i} `.repeat(40);

/** Four files edited into `edits` versions, one snapshot every 30 hours, a policy that thins all but the newest, and a remote `origin`. */
async function archivableHistory(swift: ProvidedSwift, edits = 16) {
  const { dataDir, root, storeDir } = await thinnableHistory('hindsight-archive-', edits, contents);
  const bucket = await newBucket(swift);
  const env = { ...swiftEnv(swift), HINDSIGHT_DATA_DIR: dataDir };
  await cliJson(['remote', 'add', 'origin', `s3://${bucket}/hs`, '--endpoint', swift.endpoint, '--region', swift.region, '--path-style'], env);
  return { root, env, blobsDir: join(storeDir, 'blobs') };
}

function blobFiles(blobsDir: string): string[] {
  return readdirSync(blobsDir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && /^[0-9a-f]{64}$/.test(d.name))
    .map((d) => d.name)
    .sort();
}

function stoppedAt(child: ChildProcess, point: string): Promise<void> {
  return new Promise((resolve) => child.stderr!.on('data', (chunk: Buffer) => chunk.toString().includes(`stopped at ${point}`) && resolve()));
}

/** Every version of every file reads back as what was written (fetched from the remote where it lives only there). */
async function everyVersionReads(root: string, env: NodeJS.ProcessEnv, edits = 16): Promise<void> {
  const written = new Set(Array.from({ length: edits }, (_, i) => contents(i)));
  for (let f = 0; f < 4; f++) {
    const versions = await cliJson<VersionInfo[]>(['log', root, `x${f}.txt`], env);
    expect(versions.length).toBe(edits / 4);
    for (const version of versions) {
      const shown = await runCli(['show', root, `x${f}.txt`, '--version', String(version.versionId)], env);
      expect(shown.code, shown.stderr.toString()).toBe(0);
      expect(written.has(shown.stdout.toString())).toBe(true);
    }
  }
}

describeWithSwift('a prune that archives to a remote', (swift) => {
  it("dry run says what would move; the prune keeps every version, moves the thinned ones' bytes, and they read back exactly", async () => {
    const { root, env, blobsDir } = await archivableHistory(swift);
    const before = blobFiles(blobsDir);
    const snapshots = (await cliJson<SnapshotInfo[]>(['log', root], env)).length;

    const dry = await cliJson<PruneResult>(['prune', root, '--dry-run', '--archive-to', 'origin'], env);
    expect(dry.archive).toMatchObject({ remote: 'origin', movedBlobs: 0, error: null });
    // 16 contents, the newest 4 kept: 12 blobs only thinned versions name.
    expect(dry.archive!.blobs).toBe(12);
    expect(dry.snapshots).toBe(0);
    expect(dry.decisions!.some((d) => !d.kept)).toBe(true);
    expect(blobFiles(blobsDir)).toEqual(before);

    // The setting, checked by the config schema, asks for it on every prune.
    expect((await runCli(['config', 'set', 'retention.archiveToRemote', 'not a name'], env)).code).not.toBe(0);
    await cliJson(['config', 'set', 'retention.archiveToRemote', 'origin'], env);
    const pruned = await cliJson<PruneResult>(['prune', root], env);
    expect(pruned.archive).toMatchObject({ remote: 'origin', blobs: 12, movedBlobs: 12, error: null });
    expect(pruned.versions).toBe(0);
    expect((await cliJson<SnapshotInfo[]>(['log', root], env)).length).toBe(snapshots);
    expect(blobFiles(blobsDir)).toHaveLength(before.length - 12);
    expect(await cliJson<VerifyResult>(['verify', root], env)).toMatchObject({ ok: true, missing: [], remoteOnly: 12 });

    await everyVersionReads(root, env);
    // Read back, each blob is on this disk again; the next prune moves them again, pushing nothing new.
    expect(blobFiles(blobsDir)).toEqual(before);
    expect((await cliJson<PruneResult>(['prune', root], env)).archive).toMatchObject({ movedBlobs: 12, error: null });
  });

  for (const point of ['archive-pushed', 'archive-removing'] as const) {
    it(`a prune killed at ${point} loses nothing, and the next one finishes`, async () => {
      const { root, env, blobsDir } = await archivableHistory(swift);
      const before = blobFiles(blobsDir);
      const child = startCli(['prune', root, '--json', '--archive-to', 'origin'], { ...env, HINDSIGHT_STOP_AT: point });
      const done = finished(child);
      await stoppedAt(child, point);
      child.kill('SIGKILL');
      await done;
      // Killed after the push: every file is here; killed after the first removal: that one is on the remote.
      expect(blobFiles(blobsDir)).toHaveLength(before.length - (point === 'archive-pushed' ? 0 : 1));
      expect(await cliJson<VerifyResult>(['verify', root], env)).toMatchObject({ ok: true, missing: [], remoteOnly: point === 'archive-pushed' ? 0 : 1 });

      const next = await cliJson<PruneResult>(['prune', root, '--archive-to', 'origin'], env);
      expect(next.archive).toMatchObject({ movedBlobs: point === 'archive-pushed' ? 12 : 11, error: null });
      expect(blobFiles(blobsDir)).toHaveLength(before.length - 12);
      await everyVersionReads(root, env);
    });
  }
});

describeWithSwift('a prune that archives while the server is stopped', () => {
  let own: PrivateSwift;
  beforeAll(async () => {
    own = await startSwift();
  }, 120_000);
  afterAll(async () => {
    await own?.stop();
  });

  it('moves nothing, says why in its answer and exit code, and the next prune moves it all', async () => {
    const { root, env, blobsDir } = await archivableHistory({ ...own, proxyLog: own.proxyLog });
    const before = blobFiles(blobsDir);
    const faultEnv = { ...env, HINDSIGHT_REMOTE_RETRIES: '2', HINDSIGHT_REMOTE_RETRY_MS: '20' };
    await own.stopProxy('SIGKILL');
    const failed = await runCli(['prune', root, '--json', '--archive-to', 'origin'], faultEnv);
    expect(failed.code).toBe(1);
    const answer = JSON.parse(failed.stdout.toString()) as PruneResult;
    expect(answer.archive).toMatchObject({ remote: 'origin', blobs: 12, movedBlobs: 0 });
    expect(answer.archive!.error).toContain('Nothing was moved to origin');
    expect(answer.archive!.error).toContain('Cannot reach');
    expect(blobFiles(blobsDir)).toEqual(before);
    expect(await cliJson<VerifyResult>(['verify', root], env)).toMatchObject({ ok: true, missing: [], remoteOnly: 0 });

    await own.startProxy();
    const moved = await cliJson<PruneResult>(['prune', root, '--archive-to', 'origin'], faultEnv);
    expect(moved.archive).toMatchObject({ movedBlobs: 12, error: null });
    await everyVersionReads(root, env);
  });
});
