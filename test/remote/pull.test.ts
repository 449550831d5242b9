import { expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliJson, finished, runCli, startCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { readTree, sha256 } from '../helpers/writeTree.js';
import { loggedRequests } from '../../scripts/swift/proxyAccessLog.js';
import type { PushResult } from '../../electron/history/remote/push/pushProject.js';
import type { CloneResult } from '../../electron/history/remote/fetch/cloneProject.js';
import type { PullResult } from '../../electron/history/remote/fetch/pullProject.js';
import type { SnapshotInfo } from '../../shared/history.js';
import { HistoryEngine } from '../../electron/history/historyEngine.js';
import { describeWithSwift, swiftEnv } from './swiftTestKit.js';
import { kindOf, pushSetup, smallTree } from './remoteCli.js';
import { until } from '../helpers/until.js';

// `hindsight pull` between two machines (two data folders) against the run's real Swift: each
// brings in the other's new snapshots marked with the machine they came from, leaves its folder
// alone, fetches the bytes of those snapshots when first read, and a second pull imports nothing.

interface Version {
  versionId: number;
  snapshotId: number;
  hash: string | null;
}

describeWithSwift('hindsight pull against a real Swift', (swift) => {
  it("brings the other machine's snapshots in, keeps both histories, and is idempotent", async () => {
    const { root, env, bucket } = await pushSetup(swift, smallTree(12, 4));
    const pushedA = await cliJson<PushResult>(['push', root], env);

    // Machine B clones, edits, records and pushes.
    const env2 = { ...swiftEnv(swift), HINDSIGHT_DATA_DIR: tempDir('hindsight-data-') };
    await cliJson(['remote', 'add', 'origin', `s3://${bucket}/team/hs`, '--endpoint', swift.endpoint, '--path-style'], env2);
    const into = join(tempDir(), 'clone');
    await cliJson<CloneResult>(['clone', '--remote', 'origin', '--project', pushedA.projectId, '--into', into], env2);
    writeFileSync(join(into, 'src/d0/f0.txt'), 'edited on machine B\n');
    await cliJson(['checkpoint', into, 'B edit'], env2);
    const pushedB = await cliJson<PushResult>(['push', into], env2);
    expect(pushedB.machine).not.toBe(pushedA.machine);

    // Machine A pulls: B's snapshot arrives with B's machine id; A's folder is not touched.
    const folderBefore = readTree(root);
    const logBefore = await cliJson<SnapshotInfo[]>(['log', root], env);
    const pulled = await cliJson<PullResult>(['pull', root], env);
    expect(pulled).toMatchObject({ remoteProjectId: pushedA.projectId, machine: pushedA.machine, snapshots: pushedB.snapshots });
    expect(pulled.machines).toEqual([expect.objectContaining({ machine: pushedB.machine, snapshots: pushedB.snapshots })]);
    expect(readTree(root)).toEqual(folderBefore);
    const logAfter = await cliJson<SnapshotInfo[]>(['log', root], env);
    expect(logAfter).toHaveLength(logBefore.length + pushedB.snapshots);
    const fromB = logAfter.filter((s) => s.machine !== undefined);
    expect(fromB).toHaveLength(pushedB.snapshots);
    expect(fromB.every((s) => s.machine!.id === pushedB.machine)).toBe(true);
    expect(fromB[fromB.length - 1]).toMatchObject({ label: 'B edit', snapshotId: pulled.machines[0]!.newest!.snapshotId });
    expect(logBefore.every((s) => s.machine === undefined)).toBe(true);

    // The version B recorded: its bytes come from the remote on first read, checked by hash.
    const versions = await cliJson<Version[]>(['log', root, 'src/d0/f0.txt'], env);
    const bVersion = versions.find((v) => fromB.some((s) => s.snapshotId === v.snapshotId))!;
    expect(bVersion.hash).toBe(sha256(Buffer.from('edited on machine B\n')));
    const before = loggedRequests(swift.proxyLog, bucket).length;
    const shown = await runCli(['show', root, 'src/d0/f0.txt', '--version', String(bVersion.versionId)], env);
    expect(shown.code, shown.stderr).toBe(0);
    expect(sha256(shown.stdout)).toBe(bVersion.hash);
    expect(
      loggedRequests(swift.proxyLog, bucket)
        .slice(before)
        .map((r) => r.method),
    ).toEqual(['GET']);
    const restored = await runCli(['restore', root, 'src/d0/f0.txt', '--version', String(bVersion.versionId)], env);
    expect(restored.code, restored.stderr).toBe(0);
    expect(readFileSync(join(root, 'src/d0/f0.txt'), 'utf8')).toBe('edited on machine B\n');

    // A second pull with nothing new: one LIST, nothing imported.
    const snapshotsNow = (await cliJson<SnapshotInfo[]>(['log', root], env)).length;
    const quiet = loggedRequests(swift.proxyLog, bucket).length;
    const again = await cliJson<PullResult>(['pull', root], env);
    expect(again.snapshots).toBe(0);
    expect(
      loggedRequests(swift.proxyLog, bucket)
        .slice(quiet)
        .map((r) => r.method),
    ).toEqual(['GET']);
    expect(await cliJson<SnapshotInfo[]>(['log', root], env)).toHaveLength(snapshotsNow);

    // Both histories are kept: A's own snapshots since go up, and B pulls them (and only them).
    writeFileSync(join(root, 'src/d1/f1.txt'), 'edited on machine A\n');
    await cliJson(['checkpoint', root, 'A edit'], env);
    const pushedAgain = await cliJson<PushResult>(['push', root], env);
    expect(pushedAgain.upToDate).toBe(false);
    const pulledB = await cliJson<PullResult>(['pull', into], env2);
    expect(pulledB.machines).toEqual([expect.objectContaining({ machine: pushedA.machine })]);
    // Every snapshot A pushed since (its restore's and its edit's), none of those the clone has.
    expect(pulledB.snapshots).toBe(pushedAgain.snapshots);
    const logB = await cliJson<SnapshotInfo[]>(['log', into], env2);
    expect(logB.filter((s) => s.label === 'A edit').map((s) => s.machine?.id)).toEqual([pushedA.machine]);
    expect(readFileSync(join(into, 'src/d1/f1.txt'))).not.toEqual(Buffer.from('edited on machine A\n'));
    expect((await cliJson<PullResult>(['pull', into], env2)).snapshots).toBe(0);
  });

  it('a pull killed (SIGKILL) while reading records imports nothing twice when run again', async () => {
    const { root, env, bucket } = await pushSetup(swift, smallTree(6, 8));
    const pushedA = await cliJson<PushResult>(['push', root], env);
    const env2 = { ...swiftEnv(swift), HINDSIGHT_DATA_DIR: tempDir('hindsight-data-') };
    await cliJson(['remote', 'add', 'origin', `s3://${bucket}/team/hs`, '--endpoint', swift.endpoint, '--path-style'], env2);
    const into = join(tempDir(), 'clone');
    await cliJson<CloneResult>(['clone', '--remote', 'origin', '--project', pushedA.projectId, '--into', into], env2);
    // Many pushes from B: many records for A to read, so the kill lands among them. B's engine
    // runs in this process (sixty CLI starts would take most of the test's time on a loaded machine).
    let sent = 0;
    const b = new HistoryEngine(env2.HINDSIGHT_DATA_DIR);
    try {
      const { projectId } = await b.open(into);
      const credentials = { accessKeyId: swift.accessKeyId, secretAccessKey: swift.secretAccessKey };
      for (let i = 0; i < 30; i++) {
        writeFileSync(join(into, 'src/d2/f2.txt'), `B edit ${i}\n`);
        await b.checkpoint(projectId, `B ${i}`);
        sent += (await b.push(projectId, undefined, { credentials })).snapshots;
      }
    } finally {
      b.close();
    }
    const start = loggedRequests(swift.proxyLog, bucket).length;
    const recordsRead = () =>
      loggedRequests(swift.proxyLog, bucket)
        .slice(start)
        .filter((r) => r.method === 'GET' && kindOf(r.path) === 'record').length;
    const child = startCli(['pull', root, '--json'], env);
    const done = finished(child);
    await until(() => recordsRead() >= 3, { everyMs: 3 }).finally(() => child.kill('SIGKILL'));
    const killed = await done;
    // Killed before it finished: it printed no result.
    expect(killed.signal).toBe('SIGKILL');
    expect(killed.stdout.length).toBe(0);

    // Run again: every snapshot of B exactly once, whatever the kill interrupted.
    const again = await cliJson<PullResult>(['pull', root], env);
    const log = await cliJson<SnapshotInfo[]>(['log', root], env);
    const fromB = log.filter((s) => s.machine !== undefined).map((s) => s.machine!.snapshot);
    expect(new Set(fromB).size).toBe(fromB.length);
    expect(fromB).toHaveLength(sent);
    expect(again.snapshots).toBeLessThanOrEqual(sent);
    expect((await cliJson<PullResult>(['pull', root], env)).snapshots).toBe(0);
  });
});
