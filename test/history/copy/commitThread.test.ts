import { realpathSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { SnapshotInfo } from '../../../shared/history.js';
import { COMMIT_THREAD_FILES, defaultCommitThreadFrom, firstCopy } from '../../../electron/history/copy/firstCopy.js';
import { ProjectStore } from '../../../electron/history/project/projectStore.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree, type TreeSpec } from '../../helpers/writeTree.js';

// A large first copy commits its baseline on a thread of its own (db/commitThread.ts): the main
// thread runs no statement of it, the rows are the same as a commit here writes, and the snapshot
// is announced as any other. A small one commits here (a thread's boot would cost more). Counted,
// never timed.

function tree(files: number): string {
  const root = tempDir();
  const spec: TreeSpec = { 'run.sh': { data: '#!/bin/sh\n', mode: 0o755 }, link: { link: 'run.sh' } };
  for (let i = 0; i < files; i++) spec[`d${i % 10}/f${i}.txt`] = `${i}\n`;
  writeTree(root, spec);
  return realpathSync(root);
}

function storeOf(root: string, told: SnapshotInfo[]): ProjectStore {
  const store = ProjectStore.open(root, tempDir('hindsight-data-'), { onSnapshot: (_, snapshot) => told.push(snapshot) });
  onTestFinished(() => store.close());
  return store;
}

describe('the baseline commit', () => {
  it('runs on the commit thread for a large copy, with the same rows and the snapshot announced', async () => {
    const told: SnapshotInfo[] = [];
    const root = tree(300);
    const store = storeOf(root, told);
    resetTrace();
    const copied = await firstCopy(store, { commitThreadFrom: 100, baselineBatchFiles: 100 });
    expect(counter('index.commitsOnThread')).toBe(1);
    // Its batches and the publish, written on the thread.
    expect(counter('baseline.transactions')).toBe(Math.ceil(302 / 100) + 1);
    expect(copied.files).toBe(302);
    const baseline = store.index.snapshotReads.baselineId();
    expect(told.map((s) => [s.snapshotId, s.kind, s.files])).toEqual([[baseline, 'baseline', 302]]);
    const files = store.index.files.filesAt(baseline);
    expect(files).toHaveLength(302);
    expect(files.find((f) => f.path === 'run.sh')?.mode).toBe(0o755);
    expect(files.find((f) => f.path === 'link')?.type).toBe('symlink');
    // The same rows a commit on this thread writes.
    const here = storeOf(root, []);
    await firstCopy(here, { commitThreadFrom: 100_000 });
    const strip = (list: typeof files) => list.map(({ path, hash, mode, size, type }) => ({ path, hash, mode, size, type }));
    expect(strip(files)).toEqual(strip(here.index.files.filesAt(here.index.snapshotReads.baselineId())));
  });

  it('is used from 8,192 files on, on 4 cores or more only', () => {
    expect([1, 2, 3, 4, 16].map((cores) => defaultCommitThreadFrom(cores))).toEqual([Infinity, Infinity, Infinity, COMMIT_THREAD_FILES, COMMIT_THREAD_FILES]);
    expect(COMMIT_THREAD_FILES).toBe(8192);
  });

  it('stays on this thread for a small copy', async () => {
    const store = storeOf(tree(20), []);
    resetTrace();
    expect((await firstCopy(store)).files).toBe(22);
    expect(counter('index.commitsOnThread')).toBe(0);
  });
});
