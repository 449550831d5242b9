import { count } from '../../trace.js';
import { blobCorrupt } from '../../remoteLayout/packFormat.js';
import type { BlobSink } from './fetchBlobs.js';
import type { BlobStore } from '../../store/blobStore.js';

// Blobs fetched from a remote go into the project's blob store like filed ones, through the
// project's BlobStore (store/blobStore.ts: compressed when that pays; a private temp, then a
// rename to the final name), only after their bytes matched their hash (packed blobs are checked
// by unpackBlob before they get here, and hashed again as they are filed; a large blob's file is
// hashed here). Whatever the server sent, a damaged blob never takes a blob's name. A blob that
// came in the store's compressed form (a zstd entry, inflated and checked by unpackBlob) is kept
// in that form as it came: nothing is compressed again.

export function storeSink(blobs: BlobStore): BlobSink {
  return {
    put(hash, bytes, compressed) {
      // A blob already stored is kept (both look before they write).
      const filed = compressed ? blobs.putCompressedForm(bytes, compressed) : blobs.put(bytes);
      if (filed.hash !== hash) throw blobCorrupt(hash, 'its bytes do not match their hash');
    },
    tempFor() {
      // Made private before the download opens it (it keeps this mode); swept like any store temp if left behind.
      return blobs.newLooseFile();
    },
    async placeChecked(hash, temp) {
      if (!(await blobs.placeLearned(hash, temp))) throw blobCorrupt(hash, 'its bytes do not match their hash');
    },
  };
}

/** The hashes of `hashes` the blob store lacks; counts each probe as `remote.blobsProbed`. */
export function missingBlobs(blobs: BlobStore, hashes: Iterable<string>): string[] {
  const unique = [...new Set(hashes)];
  count('remote.blobsProbed', unique.length);
  return unique.filter((hash) => !blobs.has(hash));
}
