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
}

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
    };

export interface PackWorkerData {
  /** Run at the lowest priority (the app's background push), where a thread's priority is its own. */
  lowPriority: boolean;
}
