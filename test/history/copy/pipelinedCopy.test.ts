import { realpathSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startFiling } from '../../../electron/history/store/fileEntries.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { CopyPool } from '../../../electron/history/store/copyPool.js';
import { CopySlots } from '../../../electron/history/store/copySlots.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { walkFolder } from '../../../electron/history/walk/walkFolder.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree, type TreeSpec } from '../../helpers/writeTree.js';
import { BlobStore } from '../../../electron/history/store/blobStore.js';

// The first copy starts copying while the walk is still going, and projects opening together are
// served in the order they started, so the first one is ready first.

function tree(files: number, folders: number): string {
  const root = tempDir();
  const spec: TreeSpec = {};
  for (let i = 0; i < files; i++) spec[`d${i % folders}/f${i}.txt`] = `${root} ${i}\n`.repeat(1 + (i % 20));
  writeTree(root, spec);
  return realpathSync(root);
}

describe('a pipelined first copy', () => {
  it('sends batches to the copy workers before the walk has finished', async () => {
    const root = tree(800, 25);
    const engine = new HistoryEngine(tempDir('hindsight-data-'));
    resetTrace();
    try {
      expect((await engine.open(root)).files).toBe(800);
    } finally {
      engine.close();
    }
    expect(counter('copy.batchesSentDuringWalk')).toBeGreaterThan(0);
  });

  it('serves projects opening together in the order they started: the first is ready first', async () => {
    // The first project's files arrive in two parts (its walk is long); the second project's arrive
    // in between. First come first served alone would finish the second one first.
    const big = await walkFolder(tree(400, 8));
    const small = await walkFolder(tree(10, 1));
    const pool = new CopyPool(new CopySlots(1));
    const ready: string[] = [];
    try {
      const first = startFiling({ blobs: new BlobStore(tempDir('hindsight-blobs-')), pool, priority: 1 });
      const second = startFiling({ blobs: new BlobStore(tempDir('hindsight-blobs-')), pool, priority: 2 });
      first.add(big.slice(0, 100));
      second.add(small);
      first.add(big.slice(100));
      // The second project's walk ends first: its last batch is sent before the first's.
      const secondDone = second.finish(small).then(() => ready.push('second'));
      const firstDone = first.finish(big).then(() => ready.push('first'));
      await Promise.all([firstDone, secondDone]);
    } finally {
      await pool.close();
    }
    expect(ready).toEqual(['first', 'second']);
  });
});
