import type { StoredBlob } from '../layout/packFormat.js';

// The messages between a push (or a read-ahead) and its pack workers (packWorker.ts). A request names a batch of
// blobs in the store; the answer carries their stored forms (or raw bytes) in one transferred buffer, in the
// order asked, up to the first error (a damaged blob: its code and details), which stands for the rest.

export interface PackRequest {
  type: 'pack';
  id: number;
  blobsDir: string;
  /** [hash, size the index recorded, a file whose version holds it ('' when none is named)] */
  blobs: [hash: string, size: number, path: string][];
  /** The checked bytes as they are, not compressed (a read-ahead: store/readAhead.ts). */
  raw?: boolean;
  /**
   * A blob the store keeps compressed goes in that form as it is kept (encoding zstd), never
   * compressed again: `checked` inflates it to check its hash first (a push), `header` checks
   * only its header (an export: the importer checks every compressed form it takes).
   */
  carry?: CarryCompressed;
}

export type CarryCompressed = 'checked' | 'header';

export type FromPackWorker =
  | { type: 'ready'; niceness: number | null }
  | {
      type: 'packed';
      id: number;
      /** The stored forms one after another. */
      body: ArrayBuffer;
      /** Per blob, in the order asked: stored length and encoding (fewer than asked after a failure). */
      stored: [length: number, encoding: StoredBlob['encoding']][];
      /** Why the blob after the last stored one (and the rest of the batch) was not packed. */
      failed?: { code?: string; message: string; details?: Record<string, unknown> };
      /** The trace counters the batch moved on the worker (added to the process's: trace.ts). */
      counts: Record<string, number>;
    };

export interface PackWorkerData {
  /** Run at the lowest priority (the app's background push), where a thread's priority is its own. */
  lowPriority: boolean;
}
