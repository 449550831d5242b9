import type { WorkerFailure } from '../workerFailure.js';

// The messages between a read-ahead pool (readAheadPool.ts) and its threads (readWorker.ts for
// raw bytes, the push's packWorker.ts for stored forms), carried by their WorkerHost. A request
// names a batch of blobs in the store; the answer carries their forms in one transferred buffer,
// in the order asked, up to the first error (a damaged blob: its code and details), which stands
// for the rest.

export interface ReadRequest {
  blobsDir: string;
  /** [hash, size the index recorded, a file whose version holds it ('' when none is named)] */
  blobs: [hash: string, size: number, path: string][];
  /**
   * A blob the store keeps compressed goes in that form as it is kept (encoding zstd), never
   * compressed again: `checked` inflates it to check its hash first (a push), `header` checks
   * only its header (an export: the importer checks every compressed form it takes).
   */
  carry?: CarryCompressed;
}

export type CarryCompressed = 'checked' | 'header';

export interface ReadBatch<Encoding extends string> {
  /** The forms one after another. */
  body: ArrayBuffer;
  /** Per blob, in the order asked: its form's length and encoding (fewer than asked after a failure). */
  forms: [length: number, encoding: Encoding][];
  /** Why the blob after the last one read (and the rest of the batch) was not read. */
  failed?: WorkerFailure;
  /** The trace counters the batch moved on the thread (added to the process's: trace.ts). */
  counts: Record<string, number>;
}

/** One blob's bytes as the thread made them: raw, or encoded (the push's stored form). */
export interface BlobForm<Encoding extends string> {
  bytes: Buffer;
  encoding: Encoding;
}
