import type { CompactLook } from '../store/compactBlob.js';

// The messages between the history process and the compaction thread (compactWorker.ts), carried
// by their WorkerHost: a batch of blobs to look at, and what was found for each (the compressed
// bytes moved, not copied).

export interface LookRequest {
  /** The history store whose blobs are looked at (the thread opens its BlobStore). */
  storeDir: string;
  blobs: { hash: string; size: number }[];
}

export type LookReply = CompactLook[];

/** The compressed bytes of a batch's looks, handed over with the reply instead of copied. */
export function transferables(looks: readonly CompactLook[]): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const look of looks) if (look.kind === 'convert') buffers.add(look.bytes.buffer as ArrayBuffer);
  return [...buffers];
}
