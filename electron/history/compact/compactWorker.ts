import { lookForCompaction } from '../store/compactBlob.js';
import { BlobStore } from '../store/blobStore.js';
import { serveRequests } from '../serveRequests.js';
import { transferables, type LookReply, type LookRequest } from './compactProtocol.js';

// The compaction thread: reads, hash-checks and compresses the blobs of one batch at a time
// (store/compactBlob.ts), at the lowest priority where a thread's priority is its own (Linux; its
// host asks for it), so a compaction never takes CPU time from a copy or a recorded change. It
// writes nothing: the project's writer places what it found.

serveRequests((request: LookRequest): LookReply => {
  const store = BlobStore.of(request.storeDir);
  // Each compressed form gets its own buffer (a pooled one could be shared with other bytes).
  return request.blobs.map((blob) => {
    const look = lookForCompaction(store, blob.hash, blob.size);
    return look.kind === 'convert' ? { ...look, bytes: new Uint8Array(look.bytes) } : look;
  });
}, transferables);
