import { parentPort } from 'node:worker_threads';
import { SearchIndexWriter } from '../db/searchIndexWriter.js';
import { onBlobDamage, type BlobProblem } from '../store/blobReader.js';
import { lowestThreadPriority } from '../threadPriority.js';
import { workerFailure } from '../workerFailure.js';
import { indexBatch } from './indexBatch.js';
import type { IndexReply, IndexRequest } from './indexThread.js';

// The search index build's worker thread: reads the next blobs, tests them for text and records
// them in the trigram index (FTS5's tokenizer is most of the build's time) from its own
// connection to history.db, at the lowest priority, one batch per request; the history process's
// event loop only asks and counts. A blob this thread finds missing or damaged is named in the
// reply, so the store (listening on the history process's thread) marks it as any reader's find.

const niceness = lowestThreadPriority();
let writer: SearchIndexWriter | undefined;

function batch(request: IndexRequest): IndexReply {
  if (writer?.file !== request.file) {
    writer?.close();
    writer = new SearchIndexWriter(request.file, request.gate);
  }
  const damaged: [string, BlobProblem][] = [];
  const stopListening = onBlobDamage(request.blobsDir, (hash, problem) => void damaged.push([hash, problem]));
  try {
    return { type: 'batch', ...indexBatch(writer, request.blobsDir, request.cursor, request.maxSize), niceness, damaged };
  } finally {
    stopListening();
  }
}

parentPort?.on('message', (request: IndexRequest) => {
  let reply: IndexReply;
  try {
    reply = batch(request);
  } catch (error) {
    reply = workerFailure(error);
  }
  parentPort?.postMessage(reply);
});
