import { serveRequests } from '../../serveRequests.js';
import { readBlobHead } from '../../store/blobReader.js';
import type { ReadRequest } from '../../store/readAheadProtocol.js';
import { readBatch } from '../../store/readBatch.js';
import { storedForm } from '../layout/packFormat.js';

// A push's pack worker: reads a batch of small blobs from the store, each hashed in the pass that
// reads it (readBlobHead refuses bytes that do not match their name), and compresses each into
// its stored form (packFormat.ts). The push's own thread only assembles the packs in order and
// uploads them, so reading, hashing and compressing run on the other cores beside the uploads and
// the start of the push (the S3 client's modules, the LIST of heads). The app's background push
// runs it at the lowest priority (its host asks for it).

serveRequests(
  (request: ReadRequest) => readBatch(request, (blobsDir, hash, size, subject) => storedForm(readBlobHead(blobsDir, hash, Number.MAX_SAFE_INTEGER, size, subject))),
  (batch) => [batch.body],
);
