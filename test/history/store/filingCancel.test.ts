import { realpathSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { CopyPool } from '../../../electron/history/store/copyPool.js';
import { CopySlots } from '../../../electron/history/store/copySlots.js';
import { startFiling } from '../../../electron/history/store/fileEntries.js';
import { walkFolder } from '../../../electron/history/walk/walkFolder.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { BlobStore } from '../../../electron/history/store/blobStore.js';

// A filing cancelled while its batches wait for a copy slot: those batches fail with the cancel,
// and the filing answers it when it is settled or finished. Until then (the walk may still be
// running) their failure is the filing's to report, never an unhandled rejection of the process.

describe('a filing cancelled while its batches wait for a slot', () => {
  it('raises no unhandled rejection, and settles and finishes with the cancel', async () => {
    const root = tempDir();
    const spec: Record<string, string> = {};
    for (let i = 0; i < 200; i++) spec[`d/f${i}.txt`] = `file ${i}\n`;
    writeTree(root, spec);
    const entries = await walkFolder(realpathSync(root));
    const slots = new CopySlots(1);
    const pool = new CopyPool(slots);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      await slots.acquire(); // the only slot is busy: every batch waits for it
      const controller = new AbortController();
      const filing = startFiling({ blobs: new BlobStore(tempDir('hindsight-blobs-')), pool, signal: controller.signal });
      filing.add(entries);
      expect(filing.sent).toBeGreaterThan(1);
      controller.abort(new Error('Cancelled.'));
      slots.release(); // each waiting batch now gets the slot, sees the cancel and fails
      for (let i = 0; i < 20; i++) await nextTurn();
      expect(unhandled).toEqual([]);
      await filing.settle();
      await expect(filing.finish(entries)).rejects.toThrow('Cancelled.');
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await pool.close();
    }
  });
});
