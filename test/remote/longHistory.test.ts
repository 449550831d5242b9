import { expect, it } from 'vitest';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { cliJson, runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { readTree } from '../helpers/writeTree.js';
import { HistoryEngine } from '../../electron/history/historyEngine.js';
import type { PushResult } from '../../electron/history/remote/push/pushProject.js';
import type { CloneResult } from '../../electron/history/remote/fetch/cloneProject.js';
import type { PullResult } from '../../electron/history/remote/fetch/pullProject.js';
import type { FileEntry, SnapshotInfo, VersionInfo } from '../../shared/history.js';
import { addSnapshots, contentAfter, LONG_HISTORY_FILE } from '../helpers/longHistory.js';
import { describeWithSwift, swiftEnv } from './swiftTestKit.js';
import { pushSetup } from './remoteCli.js';

// Clone and pull of what the walk records and of what a long history holds, against the run's
// real Swift: names holding a backslash arrive as recorded, and a record of 130,000 snapshots
// (past what a call's arguments can carry) is read by a pull and by a clone.

const MANY = 130_000;

function secondMachine(swift: Parameters<typeof swiftEnv>[0], bucket: string) {
  const env = { ...swiftEnv(swift), HINDSIGHT_DATA_DIR: tempDir('hindsight-data-') };
  const add = ['remote', 'add', 'origin', `s3://${bucket}/team/hs`, '--endpoint', swift.endpoint, '--region', swift.region, '--path-style'];
  return { env, ready: cliJson(add, env) };
}

describeWithSwift('clone and pull of unusual names and long histories', (swift) => {
  it('pushes and clones names holding a backslash', async () => {
    const names = ['a\\b.txt', 'dir\\name/x', 'C:drive.txt'];
    const { root, env, bucket } = await pushSetup(swift, Object.fromEntries(names.map((n) => [n, `${n}\n`])));
    const pushed = await cliJson<PushResult>(['push', root], env);
    const other = secondMachine(swift, bucket);
    await other.ready;
    const into = join(tempDir(), 'clone');
    const cloned = await cliJson<CloneResult>(['clone', '--remote', 'origin', '--project', pushed.projectId, '--into', into], other.env);
    expect(cloned).toMatchObject({ files: names.length });
    expect(readTree(into)).toEqual(readTree(root));
    expect((await cliJson<FileEntry[]>(['files', into], other.env)).map((f) => f.path)).toEqual([...names].sort());
  });

  it('pulls 130,000 new snapshots, and clones a history of 130,000 snapshots', async () => {
    const { root, env, bucket, dataDir } = await pushSetup(swift, { [LONG_HISTORY_FILE]: contentAfter(0), 'y.txt': contentAfter(1) });
    const first = await cliJson<PushResult>(['push', root], env);
    const b = secondMachine(swift, bucket);
    await b.ready;
    const intoB = join(tempDir(), 'b');
    await cliJson<CloneResult>(['clone', '--remote', 'origin', '--project', first.projectId, '--into', intoB], b.env);

    const engine = new HistoryEngine(dataDir);
    try {
      addSnapshots(engine, (await engine.open(root)).projectId, MANY);
    } finally {
      engine.close();
    }
    expect(await cliJson<PushResult>(['push', root], env)).toMatchObject({ snapshots: MANY });

    const pulled = await cliJson<PullResult>(['pull', intoB], b.env);
    expect(pulled).toMatchObject({ snapshots: MANY });
    expect(await cliJson<SnapshotInfo[]>(['log', intoB], b.env)).toHaveLength((await cliJson<SnapshotInfo[]>(['log', root], env)).length);

    const c = secondMachine(swift, bucket);
    await c.ready;
    const intoC = join(tempDir(), 'c');
    const cloned = await runCli(['clone', '--remote', 'origin', '--project', first.projectId, '--into', intoC], c.env);
    expect([cloned.code, cloned.stderr]).toEqual([0, '']);
    expect(readFileSync(join(intoC, LONG_HISTORY_FILE), 'utf8')).toBe(contentAfter(MANY));
    expect(await cliJson<VersionInfo[]>(['log', intoC, LONG_HISTORY_FILE], c.env)).toHaveLength(MANY + 1);
    // Four CLI runs over 130,000 snapshots: 30 s alone on 2 cores, twice that beside another test
    // file, so its bound is its volume's, not the suite's 60 s for an ordinary test.
  }, 180_000);
});
