import { SearchIndexWriter } from '../db/searchIndexWriter.js';
import { serveRequests } from '../serveRequests.js';
import type { BlobProblem } from '../store/blobDamage.js';
import { BlobStore } from '../store/blobStore.js';
import { indexBatch } from './indexBatch.js';
import type { IndexedBatch, IndexRequest } from './indexThread.js';

// The search index build's worker thread: reads the next blobs, tests them for text and records
// them in the trigram index (FTS5's tokenizer is most of the build's time) from its own
// connection to history.db, at the lowest priority the host asks for, one batch per request; the
// history process's event loop only asks and counts. A blob this thread finds missing or damaged
// is named in the reply, so the store (listening on the history process's thread) marks it as
// any reader's find.

let writer: SearchIndexWriter | undefined;

function batch(request: IndexRequest): IndexedBatch {
  if (writer?.file !== request.file) {
    writer?.close();
    writer = new SearchIndexWriter(request.file, request.gate);
  }
  const damaged: [string, BlobProblem][] = [];
  const blobs = BlobStore.of(request.storeDir);
  const stopListening = blobs.onDamage((hash, problem) => void damaged.push([hash, problem]));
  try {
    return { ...indexBatch(writer, blobs, request.cursor, request.maxSize), damaged };
  } finally {
    stopListening();
  }
}

serveRequests(batch);
