import { availableParallelism } from 'node:os';
import { describe, expect, it, onTestFinished } from 'vitest';
import { setSetting } from '../../../electron/history/config/projectEdits.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { sharedCopyPool } from '../../../electron/history/store/copyPool.js';
import { defaultCopyConcurrency, DEFAULT_COPY_CONCURRENCY } from '../../../electron/history/store/copyConcurrency.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

// The default copy concurrency follows the cores (one left for the main thread, at least 2, at
// most the setting's bound); the config's copyConcurrency still overrides it.

describe('the default copy concurrency', () => {
  it('is the cores less one, at least 2 and at most 64', () => {
    expect([1, 2, 3, 4, 8, 16, 200].map((cores) => defaultCopyConcurrency(cores))).toEqual([2, 2, 2, 3, 7, 15, 64]);
    expect(DEFAULT_COPY_CONCURRENCY).toBe(defaultCopyConcurrency(availableParallelism()));
  });

  it('is what a first open uses unless the setting says otherwise', async () => {
    const engine = new HistoryEngine(tempDir('hindsight-data-'));
    onTestFinished(() => engine.close());
    const root = tempDir();
    writeTree(root, { 'a.txt': 'a' });
    await engine.open(root);
    expect(sharedCopyPool().slots.capacity).toBe(DEFAULT_COPY_CONCURRENCY);
    await engine.config.editConfig(setSetting('copyConcurrency', 7));
    const other = tempDir();
    writeTree(other, { 'b.txt': 'b' });
    await engine.open(other);
    expect(sharedCopyPool().slots.capacity).toBe(7);
  });
});
