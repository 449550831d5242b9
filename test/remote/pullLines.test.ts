import { afterAll, expect, it } from 'vitest';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliJson, runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { readTree, writeTree } from '../helpers/writeTree.js';
import { HistoryEngine } from '../../electron/history/historyEngine.js';
import type { PushResult } from '../../electron/history/remote/push/pushProject.js';
import type { CloneResult } from '../../electron/history/remote/fetch/cloneProject.js';
import type { PullResult } from '../../electron/history/remote/fetch/pullProject.js';
import type { FileEntry, SnapshotInfo } from '../../shared/history.js';
import type { PruneResult } from '../../shared/contract/values.js';
import { projectIdOf } from '../../electron/history/project/projectId.js';
import { projectStoreDir } from '../../electron/history/store/storeLayout.js';
import { ageHistory } from '../history/retention/pruneHelpers.js';
import { describeWithSwift, newBucket, swiftEnv } from './swiftTestKit.js';
import { smallTree } from './remoteCli.js';

// After a pull, each machine's folder follows its own line of history (docs/REMOTE.md, "Two
// machines, one project"): machine B's edits pulled into A change nothing of what A's folder is
// compared with, the files at B's snapshot are B's folder exactly, and A's own restores, undos
// and pushes go on as before. Two data folders (two machines), the CLI as real processes, the
// run's real Swift.

/** The folder's files as the history lists them: path to [hash, mode]. */
function asListed(files: FileEntry[]): Record<string, [string, number]> {
  return Object.fromEntries(files.map((f) => [f.path, [f.hash, f.mode]]));
}

/** A folder on disk the same way. */
function onDisk(root: string): Record<string, [string, number]> {
  return Object.fromEntries(Object.entries(readTree(root)).map(([path, f]) => [path, [f.hash, f.mode]]));
}

interface Machines {
  root: string;
  into: string;
  env: NodeJS.ProcessEnv;
  env2: NodeJS.ProcessEnv;
  dataDir: string;
  pushedA: PushResult;
  pushedB: PushResult;
  /** Each folder as its machine left it before the pull. */
  folderA: Record<string, [string, number]>;
  folderB: Record<string, [string, number]>;
  /** A's snapshots before the pull, and B's newest snapshot as A numbers it. */
  logBefore: SnapshotInfo[];
  bSnapshot: number;
}

// The steps share two histories, so their folders outlive each test (tempDir's go after each) and go after the last.
const suiteDirs: string[] = [];
function suiteDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hindsight-lines-'));
  suiteDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of suiteDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describeWithSwift('lines of history after a pull, against a real Swift', (swift) => {
  // The two machines of every step below (each step is one test, run in order on the same two histories).
  let machines: Machines | undefined;
  const both = (): Machines => {
    if (!machines) throw new Error('the pull of the first test did not happen');
    return machines;
  };

  it("keeps A's folder on A's line after B's edits are pulled: a rescan records nothing, Current and the newest versions are A's", async () => {
    const root = suiteDir();
    writeTree(root, smallTree(14, 6));
    const dataDir = suiteDir();
    const bucket = await newBucket(swift);
    const env = { ...swiftEnv(swift), HINDSIGHT_DATA_DIR: dataDir };
    await cliJson(['open', root], env);
    await cliJson(['remote', 'add', 'origin', `s3://${bucket}/team/hs`, '--endpoint', swift.endpoint, '--path-style'], env);
    const pushedA = await cliJson<PushResult>(['push', root], env);

    // Machine B: clone, then change a file, a mode, add one and delete one; push.
    const env2 = { ...swiftEnv(swift), HINDSIGHT_DATA_DIR: suiteDir() };
    await cliJson(['remote', 'add', 'origin', `s3://${bucket}/team/hs`, '--endpoint', swift.endpoint, '--path-style'], env2);
    const into = join(suiteDir(), 'clone');
    await cliJson<CloneResult>(['clone', '--remote', 'origin', '--project', pushedA.projectId, '--into', into], env2);
    writeFileSync(join(into, 'src/d0/f0.txt'), 'edited on machine B\n');
    writeFileSync(join(into, 'src/only-on-b.txt'), 'new on machine B\n');
    rmSync(join(into, 'src/d1/f1.txt'));
    chmodSync(join(into, 'src/d3/f3.txt'), 0o700);
    await cliJson(['checkpoint', into, 'B edit'], env2);
    const folderB = onDisk(into);
    const pushedB = await cliJson<PushResult>(['push', into], env2);

    // Machine A edits a file of its own, then pulls B's snapshots.
    writeFileSync(join(root, 'src/d2/f2.txt'), 'edited on machine A\n');
    await cliJson(['checkpoint', root, 'A edit'], env);
    const folderA = onDisk(root);
    const engine = new HistoryEngine(dataDir);
    const logBefore = engine.log((await engine.open(root)).projectId);
    engine.close();
    const pulled = await cliJson<PullResult>(['pull', root], env);
    expect(pulled.snapshots).toBe(pushedB.snapshots);
    const bSnapshot = pulled.machines[0]!.newest!.snapshotId;
    machines = { root, into, env, env2, dataDir, pushedA, pushedB, folderA, folderB, logBefore, bSnapshot };

    // A's folder did not change, and A's rescan records nothing: it compares with A's line.
    await cliJson(['open', root], env);
    const after = new HistoryEngine(dataDir);
    try {
      const projectId = (await after.open(root)).projectId;
      expect(after.log(projectId)).toHaveLength(logBefore.length + pushedB.snapshots);
      expect(onDisk(root)).toEqual(folderA);
      // The folder's files as its history has them now are A's.
      expect(asListed(after.files(projectId))).toEqual(folderA);
      // Both lines' versions are listed, B's marked with B's machine; Current and the newest are A's.
      const versions = after.versions(projectId, 'src/d0/f0.txt');
      expect(versions.map((v) => v.machine?.id ?? 'here')).toEqual(['here', pushedB.machine]);
      expect((await after.diskState(projectId, 'src/d0/f0.txt')).currentVersionId).toBe(versions[0]!.versionId);
      expect(after.store(projectId).index.versions.latestVersion('src/d1/f1.txt')?.hash).toBe(folderA['src/d1/f1.txt']![0]);
      expect(after.deleted(projectId)).toEqual([]);
    } finally {
      after.close();
    }
  });

  it("gives B's snapshot as B's folder: its tree, and restored into a new folder, bytes and modes", async () => {
    const { root, env, folderB, bSnapshot } = both();
    expect(asListed(await cliJson<FileEntry[]>(['files', root, '--at', String(bSnapshot)], env))).toEqual(folderB);
    const copy = join(tempDir(), 'b-copy');
    const materialized = await runCli(['restore', root, '--snapshot', String(bSnapshot), '--into', copy], env);
    expect(materialized.code, materialized.stderr).toBe(0);
    expect(onDisk(copy)).toEqual(folderB);
  });

  it("restores A's own first copy and undoes it on A's line", async () => {
    const { root, env, folderA, logBefore } = both();
    const firstCopy = logBefore[0]!.snapshotId;
    const aEdit = logBefore[logBefore.length - 1]!.snapshotId;
    const restored = await runCli(['restore', root, '--snapshot', String(firstCopy)], env);
    expect(restored.code, restored.stderr).toBe(0);
    expect(onDisk(root)).not.toEqual(folderA);
    const undone = await runCli(['restore', root, '--snapshot', String(aEdit)], env);
    expect(undone.code, undone.stderr).toBe(0);
    expect(onDisk(root)).toEqual(folderA);
    const own = (await cliJson<SnapshotInfo[]>(['log', root], env)).filter((s) => s.machine === undefined);
    expect(own.slice(-2).map((s) => s.origin.kind)).toEqual(['restore', 'undo']);
  });

  it("pushes A's own snapshots only after a pull, and B's clone stays on B's line after pulling them", async () => {
    const { root, into, env, env2, pushedA, pushedB, folderB } = both();
    const own = (await cliJson<SnapshotInfo[]>(['log', root], env)).filter((s) => s.machine === undefined);
    const pushedAgain = await cliJson<PushResult>(['push', root], env);
    expect(pushedAgain.snapshots).toBe(own.length - pushedA.snapshots);
    const pulledB = await cliJson<PullResult>(['pull', into], env2);
    expect(pulledB.snapshots).toBe(pushedAgain.snapshots);
    const logB = await cliJson<SnapshotInfo[]>(['log', into], env2);
    // B's own snapshots are the ones it pushed; A's come back marked with A's machine, none twice.
    expect(logB.filter((s) => s.machine === undefined)).toHaveLength(pushedB.snapshots);
    expect(logB.filter((s) => s.label === 'A edit').map((s) => s.machine?.id)).toEqual([pushedA.machine]);
    const fromA = logB.filter((s) => s.machine?.id === pushedA.machine).map((s) => s.machine!.snapshot);
    expect(new Set(fromA).size).toBe(fromA.length);
    // A clone's line starts at the snapshot it was cloned from: B's rescan records nothing either.
    await cliJson(['open', into], env2);
    expect(await cliJson<SnapshotInfo[]>(['log', into], env2)).toHaveLength(logB.length);
    expect(asListed(await cliJson<FileEntry[]>(['files', into], env2))).toEqual(folderB);
  });

  it("does not thin a history holding another machine's snapshots: every snapshot kept, and the answer says why", async () => {
    const { root, env, dataDir } = both();
    // Five more edits of one file on A: snapshots the policy would thin (none holds a newest version).
    for (let i = 1; i <= 5; i++) {
      writeFileSync(join(root, 'thinned.txt'), 'x'.repeat(i));
      await cliJson(['open', root], env);
    }
    // Every snapshot but the newest ten days old, a minute apart: the policy alone (one a day past a week) would thin most.
    const at = (i: number, count: number) => (i === count - 1 ? Date.now() : Date.now() - 10 * 86_400_000 + i * 60_000);
    ageHistory(join(projectStoreDir(dataDir, projectIdOf(root)), 'history.db'), at);
    const log = await cliJson<SnapshotInfo[]>(['log', root], env);
    const preview = await cliJson<PruneResult>(['prune', root, '--dry-run'], env);
    expect(preview.snapshots).toBe(0);
    expect(preview.decisions!.filter((d) => !d.kept)).toEqual([]);
    expect(preview.keptBecause.otherMachines).toBeGreaterThan(0);
    const done = await cliJson<PruneResult>(['prune', root], env);
    expect(done).toMatchObject({ snapshots: 0, versions: 0, blobs: 0 });
    expect(await cliJson<SnapshotInfo[]>(['log', root], env)).toHaveLength(log.length);
  });
});
