import type { IndexedBlob } from '../db/historyIndex.js';
import { count } from '../trace.js';
import { readBlobText } from './blobText.js';
import type { BlobStore } from '../store/blobStore.js';

// One step of the search index build: the next blobs (in hash order after a cursor) the index has
// not looked at, read, then recorded in one transaction. It runs in the build's worker thread
// (indexWorker.ts), so a batch is sized for the memory the build leaves behind (below) while the
// transaction still ends early when the history process wants to write; a kill
// loses at most one batch: the next build starts from what was committed. Blobs over the size
// limit are never opened (the query leaves them out).

// Small batches: FTS5 holds a transaction's terms in memory until it commits, and what the build's
// thread allocated at its peak stays resident after the thread ends (malloc keeps an ended thread's
// arena for the next thread). Measured over ten projects' builds (95,000 files), the arena left
// behind was 76-116 MiB with 1 MiB batches, 60 MiB with 256 KiB, 31 MiB with 64 KiB; the build's
// CPU grew by 15% and 48% (more, smaller commits and segments to merge), at the lowest priority.
export const BATCH_BLOBS = 16;
export const BATCH_BYTES = 64 * 1024;

/** Where a batch reads which blobs are left and records what it found: the worker's connection (db/searchIndexWriter.ts) or a HistoryIndex. */
export interface BatchTarget {
  unindexedBlobs(after: string, maxSize: number, limit: number): { hash: string; size: number }[];
  recordIndexed(batch: readonly IndexedBlob[]): { recorded: number; added: number };
}

export interface BatchOutcome {
  /** Blobs gone through (0: none was left after the cursor). */
  looked: number;
  /** Blobs this batch recorded (another process may have recorded some meanwhile). */
  added: number;
  /** Where the next batch starts. */
  cursor: string;
}

export function indexBatch(
  target: BatchTarget,
  blobs: BlobStore,
  cursor: string,
  maxSize: number,
  limits = { blobs: BATCH_BLOBS, bytes: BATCH_BYTES },
): BatchOutcome {
  const next = target.unindexedBlobs(cursor, maxSize, limits.blobs);
  if (next.length === 0) return { looked: 0, added: 0, cursor };
  const batch: IndexedBlob[] = [];
  let bytes = 0;
  for (const blob of next) {
    // At least one blob per batch, however large (up to the size limit).
    if (batch.length > 0 && bytes + blob.size > limits.bytes) break;
    const read = readBlobText(blobs, blob.hash, blob.size);
    batch.push(
      read.state === 'text' ? { hash: blob.hash, state: 'text', bytes: blob.size, text: read.text } : { hash: blob.hash, state: read.state, bytes: blob.size },
    );
    bytes += blob.size;
  }
  const { recorded, added } = target.recordIndexed(batch);
  count('search.batches');
  // Blobs read but not recorded (the transaction ended early) are read again by the next batch.
  return { looked: recorded, added, cursor: batch[recorded - 1]!.hash };
}
