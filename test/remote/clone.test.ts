import { expect, it } from 'vitest';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliJson, runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { readTree, seededBytes, sha256 } from '../helpers/writeTree.js';
import { requestsSoFar } from '../../scripts/swift/proxyAccessLog.js';
import type { PushResult } from '../../electron/history/remote/push/pushProject.js';
import type { CloneResult } from '../../electron/history/remote/fetch/cloneProject.js';
import type { VerifyResult } from '../../shared/history.js';
import { describeWithSwift, storeFor, swiftEnv } from './swiftTestKit.js';
import { pushSetup, smallTree } from './remoteCli.js';

// `hindsight clone` on a second machine (another data folder) against the run's real Swift: the
// newest snapshot's files exactly, every older version listable, and its bytes fetched by a
// range GET the first time it is read, checked against its hash.

interface Version {
  versionId: number;
  hash: string | null;
}

describeWithSwift('hindsight clone against a real Swift', (swift) => {
  it('materializes the newest snapshot and fetches older bytes on first need, once', async () => {
    const spec = smallTree(60, 5);
    spec['bin/run.sh'] = { data: '#!/bin/sh\necho hi\n', mode: 0o755 };
    spec['link'] = { link: 'bin/run.sh' };
    spec['big.bin'] = seededBytes(11, 4 * 1024 * 1024 + 17);
    const { root, env, bucket } = await pushSetup(swift, spec);
    writeFileSync(join(root, 'src/d0/f0.txt'), 'second version\n');
    await cliJson(['checkpoint', root, 'edit'], env);
    writeFileSync(join(root, 'src/d0/f0.txt'), 'third version\n');
    await cliJson(['checkpoint', root, 'edit again'], env);
    const pushed = await cliJson<PushResult>(['push', root], env);

    // Machine two: another data folder with the same remote.
    const other = tempDir('hindsight-data-');
    const env2 = { ...swiftEnv(swift), HINDSIGHT_DATA_DIR: other };
    await cliJson(['remote', 'add', 'origin', `s3://${bucket}/team/hs`, '--endpoint', swift.endpoint, '--region', swift.region, '--path-style'], env2);
    const into = join(tempDir(), 'clone');
    const cloned = await cliJson<CloneResult>(['clone', '--remote', 'origin', '--project', pushed.projectId, '--into', into], env2);
    expect(cloned).toMatchObject({ remoteProjectId: pushed.projectId, files: 63, from: { machine: pushed.machine } });

    // The files are the folder's, modes and link included.
    const want = readTree(root);
    const got = readTree(into);
    expect(Object.fromEntries(Object.entries(got).map(([p, f]) => [p, [f.hash, f.mode]]))).toEqual(
      Object.fromEntries(Object.entries(want).map(([p, f]) => [p, [f.hash, f.mode]])),
    );
    expect(readlinkSync(join(into, 'link'))).toBe('bin/run.sh');
    expect(lstatSync(join(into, 'bin/run.sh')).mode & 0o777).toBe(0o755);

    // The history is there: every snapshot, every version of the edited file.
    const log = await cliJson<unknown[]>(['log', into], env2);
    expect(log.length).toBe((await cliJson<unknown[]>(['log', root], env)).length);
    const versions = await cliJson<Version[]>(['log', into, 'src/d0/f0.txt'], env2);
    expect(versions).toHaveLength(3);

    // The first version's bytes are not here yet: the first show fetches them (one range GET), the second reads them locally.
    const first = versions[0]!;
    const before = (await requestsSoFar(swift, bucket)).length;
    const shown = await runCli(['show', into, 'src/d0/f0.txt', '--version', String(first.versionId)], env2);
    expect(shown.code).toBe(0);
    expect(sha256(shown.stdout)).toBe(first.hash);
    const fetched = (await requestsSoFar(swift, bucket)).slice(before);
    expect(fetched.map((r) => r.method)).toEqual(['GET']);
    expect(fetched[0]!.path).toContain('/packs/');
    const again = (await requestsSoFar(swift, bucket)).length;
    const shownAgain = await runCli(['show', into, 'src/d0/f0.txt', '--version', String(first.versionId)], env2);
    expect(sha256(shownAgain.stdout)).toBe(first.hash);
    expect((await requestsSoFar(swift, bucket)).length).toBe(again);

    // A restore of the old version works the same way, and the clone pushes as a machine of its own.
    const restored = await runCli(['restore', into, 'src/d0/f0.txt', '--version', String(versions[1]!.versionId)], env2);
    expect(restored.code, restored.stderr).toBe(0);
    expect(readFileSync(join(into, 'src/d0/f0.txt'), 'utf8')).toBe('second version\n');
    const pushedBack = await cliJson<PushResult>(['push', into], env2);
    expect(pushedBack).toMatchObject({ projectId: pushed.projectId, upToDate: false, blobs: 0 });
    expect(pushedBack.machine).not.toBe(pushed.machine);
    const store = storeFor(swift, bucket, { location: { bucket, prefix: 'team/hs' } });
    try {
      const head = JSON.parse((await store.get(`projects/${pushed.projectId}/heads/${pushedBack.machine}.json`)).toString('utf8'));
      expect(head.fork).toEqual(cloned.from);
    } finally {
      store.close();
    }
  });

  it('writes an older snapshot of a clone into a new folder and exports the clone, fetching the bytes only the remote holds', async () => {
    const { root, env, bucket } = await pushSetup(swift, smallTree(6, 3));
    const firstBytes = readFileSync(join(root, 'src/d0/f0.txt'));
    writeFileSync(join(root, 'src/d0/f0.txt'), 'second version\n');
    await cliJson(['checkpoint', root, 'edit'], env);
    const pushed = await cliJson<PushResult>(['push', root], env);
    const env2 = { ...swiftEnv(swift), HINDSIGHT_DATA_DIR: tempDir('hindsight-data-') };
    await cliJson(['remote', 'add', 'origin', `s3://${bucket}/team/hs`, '--endpoint', swift.endpoint, '--path-style'], env2);
    const into = join(tempDir(), 'clone');
    await cliJson<CloneResult>(['clone', '--remote', 'origin', '--project', pushed.projectId, '--into', into], env2);
    const log = await cliJson<{ snapshotId: number }[]>(['log', into], env2);
    const oldest = Math.min(...log.map((s) => s.snapshotId));

    const before = (await requestsSoFar(swift, bucket)).length;
    const old = join(tempDir(), 'old');
    const written = await runCli(['restore', into, '--snapshot', String(oldest), '--into', old], env2);
    expect(written.code, written.stderr).toBe(0);
    expect(readFileSync(join(old, 'src/d0/f0.txt'))).toEqual(firstBytes);
    expect((await requestsSoFar(swift, bucket)).length).toBeGreaterThan(before);

    // A third machine's fresh clone, so the export is the first to need the old bytes.
    const env3 = { ...swiftEnv(swift), HINDSIGHT_DATA_DIR: tempDir('hindsight-data-') };
    await cliJson(['remote', 'add', 'origin', `s3://${bucket}/team/hs`, '--endpoint', swift.endpoint, '--path-style'], env3);
    const third = join(tempDir(), 'third');
    await cliJson<CloneResult>(['clone', '--remote', 'origin', '--project', pushed.projectId, '--into', third], env3);
    const bundle = join(tempDir(), 'clone.hsb');
    const exported = await runCli(['export', third, '--to', bundle], env3);
    // Without the fetch the export stops at the first blob it cannot read.
    expect(exported.code, exported.stderr).toBe(0);
    expect(statSync(bundle).size).toBeGreaterThan(firstBytes.length);
  });

  it('verify on a clone counts the blobs only the remote holds apart from missing ones, and --check-remote asks for them in one listing', async () => {
    const { root, env, bucket } = await pushSetup(swift, smallTree(8, 13));
    writeFileSync(join(root, 'src/d0/f0.txt'), 'second version\n');
    await cliJson(['checkpoint', root, 'edit'], env);
    writeFileSync(join(root, 'src/d0/f0.txt'), 'third version\n');
    await cliJson(['checkpoint', root, 'edit again'], env);
    const pushed = await cliJson<PushResult>(['push', root], env);
    const env2 = { ...swiftEnv(swift), HINDSIGHT_DATA_DIR: tempDir('hindsight-data-') };
    await cliJson(['remote', 'add', 'origin', `s3://${bucket}/team/hs`, '--endpoint', swift.endpoint, '--path-style'], env2);
    const into = join(tempDir(), 'clone');
    await cliJson<CloneResult>(['clone', '--remote', 'origin', '--project', pushed.projectId, '--into', into], env2);
    const verify = async (args: string[], environment: NodeJS.ProcessEnv = env2) => {
      const run = await runCli(['verify', into, '--json', ...args], environment);
      return { code: run.code, stderr: run.stderr, result: JSON.parse(run.stdout.toString('utf8')) as VerifyResult };
    };

    // The two older versions of f0.txt live on the remote only: not missing, no request made.
    let requests = (await requestsSoFar(swift, bucket)).length;
    const plain = await verify([]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.result).toMatchObject({ blobs: 10, ok: true, missing: [], corrupt: [], remoteOnly: 2, remoteCheck: null });
    expect((await requestsSoFar(swift, bucket)).length).toBe(requests);
    const text = await runCli(['verify', into], env2);
    expect(text.stdout.toString('utf8')).toContain('2 live on the remote only, fetched when first read');

    // Asked for, the remote is listed once (packs/ and blobs/), not asked blob by blob.
    requests = (await requestsSoFar(swift, bucket)).length;
    const checked = await verify(['--check-remote']);
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.result).toMatchObject({ ok: true, remoteOnly: 2, remoteCheck: { remote: 'origin', found: 2, absent: 0, error: null } });
    const asked = (await requestsSoFar(swift, bucket)).slice(requests);
    expect(asked.map((r) => r.method)).toEqual(['GET', 'GET']);
    expect(asked.every((r) => r.path.includes('list-type=2'))).toBe(true);

    // A remote that cannot be asked: the local result stands, exit 3 says the check was not made.
    const refused = await verify(['--check-remote'], { ...env2, AWS_SECRET_ACCESS_KEY: 'not-the-secret' });
    expect(refused.code).toBe(3);
    expect(refused.result).toMatchObject({ ok: true, remoteOnly: 2, remoteCheck: { remote: 'origin', found: 0, absent: 0 } });
    expect(refused.result.remoteCheck?.error).toBeTruthy();

    // The pack holding the old versions gone from the server: they are missing after all (exit 1).
    const store = storeFor(swift, bucket, { location: { bucket, prefix: 'team/hs' } });
    try {
      const packs = await store.list(`projects/${pushed.projectId}/packs/`);
      await store.delete(packs.map((p) => p.key));
    } finally {
      store.close();
    }
    const lost = await verify(['--check-remote']);
    expect(lost.code).toBe(1);
    expect(lost.result).toMatchObject({ ok: false, remoteOnly: 0, remoteCheck: { remote: 'origin', found: 0, absent: 2, error: null } });
    expect(lost.result.missing).toHaveLength(2);
    expect(lost.result.missing.every((m) => m.versions.every((v) => v.path === 'src/d0/f0.txt'))).toBe(true);
  });

  it('refuses a non-empty folder, an unknown project and a snapshot that is not there, leaving the folder as it was', async () => {
    const { root, env, bucket } = await pushSetup(swift, smallTree(5, 9));
    const pushed = await cliJson<PushResult>(['push', root], env);
    const other = tempDir('hindsight-data-');
    const env2 = { ...swiftEnv(swift), HINDSIGHT_DATA_DIR: other };
    await cliJson(['remote', 'add', 'origin', `s3://${bucket}/team/hs`, '--endpoint', swift.endpoint, '--path-style'], env2);

    const busy = join(tempDir(), 'busy');
    mkdirSync(busy);
    writeFileSync(join(busy, 'mine.txt'), 'keep me');
    const refused = await runCli(['clone', '--remote', 'origin', '--project', pushed.projectId, '--into', busy], env2);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('not empty');
    expect(readdirSync(busy)).toEqual(['mine.txt']);
    expect(readFileSync(join(busy, 'mine.txt'), 'utf8')).toBe('keep me');

    const nowhere = join(tempDir(), 'new');
    const notAnId = await runCli(['clone', '--remote', 'origin', '--project', 'not-a-project', '--into', nowhere], env2);
    expect(notAnId.code).not.toBe(0);
    expect(notAnId.stderr).toContain('"not-a-project" is not a project id');
    expect(existsSync(nowhere)).toBe(false);

    const unknown = await runCli(['clone', '--remote', 'origin', '--project', 'f'.repeat(32), '--into', nowhere], env2);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('has no project');
    expect(existsSync(nowhere)).toBe(false);

    const noSnapshot = await runCli(['clone', '--remote', 'origin', '--project', pushed.projectId, '--into', nowhere, '--snapshot', '999'], env2);
    expect(noSnapshot.code).not.toBe(0);
    expect(noSnapshot.stderr).toContain('no snapshot 999');
    expect(existsSync(nowhere)).toBe(false);
    expect(await cliJson<unknown[]>(['projects'], env2)).toEqual([]);

    // The same data folder that pushed it is the same machine: refused, so two folders never share one head.
    const same = await runCli(['clone', '--remote', 'origin', '--project', pushed.projectId, '--into', join(tempDir(), 'same')], env);
    expect(same.code).not.toBe(0);
    expect(same.stderr).toContain('another --data-dir');
  });

  it("moves a clone's thinned versions only to the remote its bytes come from", async () => {
    const { root, env, bucket } = await pushSetup(swift, smallTree(4, 5));
    const pushed = await cliJson<PushResult>(['push', root], env);
    const env2 = { ...swiftEnv(swift), HINDSIGHT_DATA_DIR: tempDir('hindsight-data-') };
    await cliJson(['remote', 'add', 'origin', `s3://${bucket}/team/hs`, '--endpoint', swift.endpoint, '--path-style'], env2);
    await cliJson(['remote', 'add', 'elsewhere', `s3://${bucket}/other/hs`, '--endpoint', swift.endpoint, '--path-style'], env2);
    const into = join(tempDir(), 'clone');
    await cliJson<CloneResult>(['clone', '--remote', 'origin', '--project', pushed.projectId, '--into', into], env2);
    const before = (await requestsSoFar(swift, bucket)).length;

    const refused = await runCli(['prune', into, '--archive-to', 'elsewhere', '--json'], env2);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('This history came from the remote origin; its thinned versions can only be moved there, not to elsewhere.');
    // Refused before anything is sent.
    expect((await requestsSoFar(swift, bucket)).length).toBe(before);
    const dry = await runCli(['prune', into, '--archive-to', 'origin', '--dry-run', '--json'], env2);
    expect(dry.code, dry.stderr).toBe(0);
  });
});
