import { parentPort } from 'node:worker_threads';
import { lookForCompaction, type CompactLook } from '../store/compactBlob.js';
import { lowestThreadPriority } from '../threadPriority.js';
import { workerFailure } from '../workerFailure.js';
import { transferables, type LookReply, type LookRequest } from './compactProtocol.js';

// The compaction thread: reads, hash-checks and compresses the blobs of one batch at a time
// (store/compactBlob.ts), at the lowest priority where a thread's priority is its own (Linux), so
// a compaction never takes CPU time from a copy or a recorded change. It writes nothing: the
// project's writer places what it found.

const niceness = lowestThreadPriority();

function send(reply: LookReply, transfer: ArrayBuffer[] = []): void {
  parentPort?.postMessage(reply, transfer);
}

parentPort?.on('message', (request: LookRequest) => {
  try {
    // Each compressed form gets its own buffer (a pooled one could be shared with other bytes).
    const looks: CompactLook[] = request.blobs.map((blob) => {
      const look = lookForCompaction(request.blobsDir, blob.hash, blob.size);
      return look.kind === 'convert' ? { ...look, bytes: new Uint8Array(look.bytes) } : look;
    });
    send({ type: 'looked', looks, niceness }, transferables(looks));
  } catch (error) {
    send(workerFailure(error));
  }
});
