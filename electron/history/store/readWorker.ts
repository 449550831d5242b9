import { serveRequests } from '../serveRequests.js';
import { keptOrRaw, readBatch } from './readBatch.js';
import type { ReadRequest } from './readAheadProtocol.js';

// A read-ahead thread (readAhead.ts): reads batches of small blobs from the store, each checked
// against its hash in the pass that reads it, and hands back their bytes as they are (or, for an
// export, a blob kept compressed as it is kept: `carry`). On a cold
// cache, reads of many small files on several threads overlap their waits for the disk.

serveRequests(
  (request: ReadRequest) => readBatch(request, keptOrRaw),
  (batch) => [batch.body],
);
