import { realpathSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { SnapshotEffect, SnapshotInfo } from '../../../shared/history.js';
import { firstCopy } from '../../../electron/history/copy/firstCopy.js';
import { foldedFolderLevel } from '../../../electron/history/db/folderLevel.js';
import { Sql } from '../../../electron/history/db/sql.js';
import { ProjectStore } from '../../../electron/history/project/projectStore.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { readTree, writeTree, type TreeSpec } from '../../helpers/writeTree.js';

// A first copy writes its rows in batches where no reader looks (store/baselineBatches.ts,
// db/stagedBaseline.ts) and publishes the baseline from them in one last transaction: counted
// transactions, the rows held at once bounded by the batch, nothing visible until the publish,
// and the same baseline (files, stat rows, blobs, folder summaries) a folder of any size gets.

function tree(files: number): string {
  const root = tempDir();
  const spec: TreeSpec = { 'run.sh': { data: '#!/bin/sh\n', mode: 0o755 }, link: { link: 'run.sh' }, 'same.txt': '0\n' };
  for (let i = 0; i < files; i++) spec[`d${i % 7}/e${i % 3}/f${i}.txt`] = `${i}\n`;
  writeTree(root, spec);
  return realpathSync(root);
}

function storeOf(root: string, told: { snapshot: SnapshotInfo; effect?: SnapshotEffect }[] = []): ProjectStore {
  const store = ProjectStore.open(root, tempDir('hindsight-data-'), { onSnapshot: (_, snapshot, effect) => told.push({ snapshot, effect }) });
  onTestFinished(() => store.close());
  return store;
}

/** What a reader on another connection sees of the history, row counts of each table. */
function visible(file: string): Record<string, number> {
  const db = new Database(file, { readonly: true });
  try {
    const n = (table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { snapshots: n('snapshots'), versions: n('versions'), stats: n('stat_cache'), blobs: n('blobs'), staged: n('staged_files') };
  } finally {
    db.close();
  }
}

describe('a first copy in batches', () => {
  it('writes N files in ceil(N / batch) transactions and one publish, holding at most a batch of rows', async () => {
    const root = tree(1000);
    const store = storeOf(root);
    resetTrace();
    const copied = await firstCopy(store, { baselineBatchFiles: 100 });
    expect(copied.files).toBe(1003);
    expect(counter('baseline.transactions')).toBe(Math.ceil(1003 / 100) + 1);
    expect(counter('baseline.rowsHeld')).toBeLessThanOrEqual(100);
    expect(counter('baseline.rowsHeld')).toBeGreaterThan(0);
    expect(visible(store.index.file)).toEqual({ snapshots: 1, versions: 1003, stats: 1003, blobs: 1002, staged: 0 });
    const files = store.index.files.filesAt(store.index.snapshotReads.baselineId());
    const disk = readTree(root);
    // readTree tells a link by its target, not its hash.
    expect(Object.fromEntries(files.filter((f) => f.type === 'file').map((f) => [f.path, { hash: f.hash, mode: f.mode }]))).toEqual(
      Object.fromEntries(
        Object.entries(disk)
          .filter(([path]) => path !== 'link')
          .map(([path, f]) => [path, { hash: f.hash, mode: f.mode }]),
      ),
    );
    expect(files.find((f) => f.path === 'link')?.type).toBe('symlink');
    expect(store.index.statCache.statTable().count).toBe(1003);
  });

  it('shows a reader nothing until the last transaction publishes the baseline', async () => {
    const root = tree(500);
    const store = storeOf(root);
    const seen: Record<string, number>[] = [];
    // Each batch looked at from another connection the moment it is written.
    const stage = store.index.staged.stageBaseline.bind(store.index.staged);
    store.index.staged.stageBaseline = (batch) => {
      stage(batch);
      seen.push(visible(store.index.file));
    };
    await firstCopy(store, { baselineBatchFiles: 64 });
    expect(seen.length).toBe(Math.ceil(503 / 64));
    for (const [at, rows] of seen.entries()) {
      expect(rows).toEqual({ snapshots: 0, versions: 0, stats: 0, blobs: 0, staged: Math.min(503, (at + 1) * 64) });
    }
    expect(visible(store.index.file)).toMatchObject({ snapshots: 1, versions: 503, staged: 0 });
  });

  it('announces the baseline once, and keeps the folder summaries the fold gives', async () => {
    const told: { snapshot: SnapshotInfo; effect?: SnapshotEffect }[] = [];
    const store = storeOf(tree(300), told);
    await firstCopy(store, { baselineBatchFiles: 50 });
    const baseline = store.index.snapshotReads.baselineId();
    expect(told.map((t) => [t.snapshot.snapshotId, t.snapshot.kind, t.snapshot.files, t.snapshot.scope])).toEqual([[baseline, 'baseline', 303, '']]);
    expect(told[0]!.effect).toEqual({ paths: [...store.index.files.filesAt(baseline).map((f) => f.path)].sort(), removed: false, pinned: false });
    const db = new Database(store.index.file, { readonly: true });
    onTestFinished(() => void db.close());
    const ref = new Sql(db, 'reference');
    expect(ref.get('SELECT fresh, baseline FROM folder_summary_state')).toEqual({ fresh: 1, baseline });
    for (const folder of ['', 'd0', 'd3/e1']) expect(store.index.files.folderLevel(folder)).toEqual(foldedFolderLevel(ref, folder, undefined, baseline));
  });

  it('starts again cleanly over rows an earlier copy staged and never published', async () => {
    const root = tree(40);
    const store = storeOf(root);
    store.index.staged.stageBaseline({
      files: [
        {
          path: 'gone.txt',
          type: 'file',
          hash: 'a'.repeat(64),
          mode: 0o644,
          size: 1,
          target: null,
          stat: { size: 1, mode: 0o644, mtimeNs: '1', ctimeNs: '1', ino: '1' },
        },
      ],
      blobs: [{ hash: 'a'.repeat(64), size: 1 }],
    });
    expect(visible(store.index.file)).toMatchObject({ snapshots: 0, blobs: 0, staged: 1 });
    resetTrace();
    const copied = await firstCopy(store, { baselineBatchFiles: 16 });
    expect(counter('baseline.restarted')).toBe(1);
    expect(copied.files).toBe(43);
    expect(store.index.files.filesAt(store.index.snapshotReads.baselineId()).map((f) => f.path)).not.toContain('gone.txt');
    expect(visible(store.index.file)).toEqual({ snapshots: 1, versions: 43, stats: 43, blobs: 42, staged: 0 });
  });
});
