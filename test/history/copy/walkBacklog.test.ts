import { realpathSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { firstCopy } from '../../../electron/history/copy/firstCopy.js';
import { ProjectStore } from '../../../electron/history/project/projectStore.js';
import { CopyPool } from '../../../electron/history/store/copyPool.js';
import { CopySlots } from '../../../electron/history/store/copySlots.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { WALK_ENTRIES_PER_MESSAGE, WALK_MESSAGES_AHEAD } from '../../../electron/history/walk/walkMessages.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { until } from '../../helpers/until.js';
import { writeTree, type TreeSpec } from '../../helpers/writeTree.js';

// A first copy's walk lists a folder far faster than its files are copied; every entry found and
// not yet filed waits in the history process's memory (about 300 bytes each: 150 MiB at 500,000
// files). The walk is held back while `walkBacklogFiles` files wait (copy/firstCopy.ts
// WALK_BACKLOG_FILES), counted by copy.filesWaiting (the most waiting at once), never timed.

/** Folders of FOLDER_FILES files: a message is sent at the first folder's end past 512 entries. */
const FOLDER_FILES = 10;

function tree(files: number): string {
  const root = tempDir();
  const spec: TreeSpec = {};
  for (let i = 0; i < files; i++) spec[`d${i % (files / FOLDER_FILES)}/f${i}.txt`] = `${i}\n`;
  writeTree(root, spec);
  return realpathSync(root);
}

function storeAndPool(root: string, slots: CopySlots, maxWorkers: number): { store: ProjectStore; pool: CopyPool } {
  const pool = new CopyPool(slots, undefined, maxWorkers);
  const store = ProjectStore.open(root, tempDir('hindsight-data-'));
  onTestFinished(async () => {
    store.close();
    await pool.close();
  });
  return { store, pool };
}

describe('the first copy walk held back by the files waiting to be filed', () => {
  it('keeps at most the bound and a few messages of entries waiting while no copy can run', async () => {
    const files = 6000;
    const slots = new CopySlots(1);
    const { store, pool } = storeAndPool(tree(files), slots, 2);
    // The one slot taken: nothing is copied, so without the hold the walk would list all 6,000.
    await slots.acquire(0);
    resetTrace();
    const copying = firstCopy(store, { pool, walkBacklogFiles: 256 });
    const messages = Math.ceil(files / WALK_ENTRIES_PER_MESSAGE);
    await until(() => counter('walk.heldBack') > 0 || counter('walk.entryMessages') >= messages, { everyMs: 0 });
    slots.release();
    expect((await copying).files).toBe(files);
    expect(counter('walk.heldBack')).toBeGreaterThan(0);
    // A message (512 entries and the rest of a folder, and the folder) is handled only below the
    // bound, and the walk runs WALK_MESSAGES_AHEAD messages past the last handled.
    const message = WALK_ENTRIES_PER_MESSAGE + FOLDER_FILES;
    expect(counter('copy.filesWaiting')).toBeLessThan(256 + (WALK_MESSAGES_AHEAD + 1) * message);
    expect(store.index.staged.stagedBaselineFiles()).toBe(0);
  });

  it('gives the copies a worker of their own while the only worker walks and is held', async () => {
    // One worker allowed: the walk takes it, and a held walk would wait for copies that wait for it.
    const { store, pool } = storeAndPool(tree(3000), new CopySlots(2), 1);
    resetTrace();
    expect((await firstCopy(store, { pool, walkBacklogFiles: 256 })).files).toBe(3000);
    expect(counter('walk.heldBack')).toBeGreaterThan(0);
    expect(counter('copy.workers')).toBe(2);
  });
});
