import type { HistoryIndex, IndexedBlob } from '../db/historyIndex.js';
import { readBlobText } from './blobText.js';

// One step of the search index build: the next blobs (in hash order after a cursor) the index has
// not looked at, read and committed in one transaction. Small on purpose (a few hundred KiB of
// text, a few milliseconds) so whatever else the process has to do waits at most one batch, and
// a kill loses at most one batch: the next build starts from what was committed.

export const BATCH_BLOBS = 32;
export const BATCH_BYTES = 128 * 1024;

export interface BatchOutcome {
  /** Blobs looked at (0: none was left after the cursor). */
  looked: number;
  /** Blobs this batch recorded (another process may have recorded some meanwhile). */
  added: number;
  /** Where the next batch starts. */
  cursor: string;
}

export function indexBatch(index: HistoryIndex, blobsDir: string, cursor: string, maxSize: number, limits = { blobs: BATCH_BLOBS, bytes: BATCH_BYTES }): BatchOutcome {
  const next = index.unindexedBlobs(cursor, maxSize, limits.blobs);
  if (next.length === 0) return { looked: 0, added: 0, cursor };
  const batch: IndexedBlob[] = [];
  let bytes = 0;
  for (const blob of next) {
    // At least one blob per batch, however large (up to the size limit).
    if (batch.length > 0 && bytes + blob.size > limits.bytes) break;
    const read = readBlobText(blobsDir, blob.hash, blob.size);
    batch.push(read.state === 'text' ? { hash: blob.hash, state: 'text', bytes: blob.size, text: read.text } : { hash: blob.hash, state: read.state, bytes: blob.size });
    bytes += blob.size;
  }
  const added = index.recordIndexed(batch);
  return { looked: batch.length, added, cursor: batch[batch.length - 1]!.hash };
}
