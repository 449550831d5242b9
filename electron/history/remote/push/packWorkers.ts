import { ReadAheadPool } from '../../store/readAheadPool.js';
import type { StoredBlob } from '../../remoteLayout/packFormat.js';
import type { BlobStore } from '../../store/blobStore.js';

// The push's pack workers (packWorker.ts): the small blobs a push expects to pack are read, hashed
// and compressed on up to two worker threads of a read-ahead pool (store/readAheadPool.ts), a
// bounded distance (32 MiB) ahead of the pack being assembled; the push takes each blob's stored
// form in its own order; a blob kept compressed goes as it is kept (encoding zstd). Packs stay exactly what one thread would make (the stored form of a blob
// does not depend on where it was made, and the packs are cut on the push's thread, in order), so
// a resumed push still finds its packs by name. Counted as `push.workerBatches`,
// `push.workerBlobs`, `push.bytesAhead` and `push.lowPriorityWorkers`.

export interface PackWorkersOptions {
  /** The app's background push: the workers run at the lowest priority. */
  lowPriority?: boolean;
}

export class PackWorkers extends ReadAheadPool<StoredBlob['encoding']> {
  constructor(blobs: BlobStore, options: PackWorkersOptions = {}) {
    // A push sends a blob the store keeps compressed as it is kept, checked first.
    super(blobs, { script: 'packWorker', trace: 'push', lowPriority: options.lowPriority, carry: 'checked' });
  }
}
