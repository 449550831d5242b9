import { serveRequests } from '../../serveRequests.js';
import type { ReadRequest } from '../../store/readAheadProtocol.js';
import { carriedBytes, readBatch } from '../../store/readBatch.js';
import { carriedForm, storedForm } from '../../remoteLayout/packFormat.js';

// A push's pack worker: reads a batch of small blobs from the store, each hashed in the pass that
// reads it (readBlobHead refuses bytes that do not match their name), and compresses each into
// its stored form (packFormat.ts); a blob the store keeps compressed is taken as it is kept
// (encoding zstd), never compressed again. The push's own thread only assembles the packs in order and
// uploads them, so reading, hashing and compressing run on the other cores beside the uploads and
// the start of the push (the S3 client's modules, the LIST of heads). The app's background push
// runs it at the lowest priority (its host asks for it).

serveRequests(
  (request: ReadRequest) =>
    readBatch(request, (blobs, hash, size, subject, carry) => {
      const kept = carriedBytes(blobs, hash, size, subject, carry);
      return kept ? carriedForm(kept) : storedForm(blobs.head(hash, Number.MAX_SAFE_INTEGER, size, subject));
    }),
  (batch) => [batch.body],
);
