import { createHash } from 'node:crypto';
import { createReadStream, rmSync } from 'node:fs';
import { count } from '../../trace.js';
import { hasBlob, newLooseTemp, placeBlobFile } from '../../store/blobFiles.js';
import { storeBytes, storeCompressedForm } from '../../store/storeBytes.js';
import { blobCorrupt } from '../layout/packFormat.js';
import type { BlobSink } from './fetchBlobs.js';

// Blobs fetched from a remote go into the project's blob store like filed ones, through the
// store's own writes (store/storeBytes.ts: compressed when that pays; a private temp, then a
// rename to the final name), only after their bytes matched their hash (packed blobs are checked
// by unpackBlob before they get here, and hashed again as they are filed; a large blob's file is
// hashed here). Whatever the server sent, a damaged blob never takes a blob's name. A blob that
// came in the store's compressed form (a zstd entry, inflated and checked by unpackBlob) is kept
// in that form as it came: nothing is compressed again.

export function storeSink(blobsDir: string): BlobSink {
  return {
    put(hash, bytes, compressed) {
      // A blob already stored is kept (both look before they write).
      const filed = compressed ? storeCompressedForm(bytes, compressed, blobsDir) : storeBytes(bytes, blobsDir);
      if (filed.hash !== hash) throw blobCorrupt(hash, 'its bytes do not match their hash');
    },
    tempFor() {
      // Made private before the download opens it (it keeps this mode); swept like any store temp if left behind.
      return newLooseTemp(blobsDir);
    },
    async placeChecked(hash, temp) {
      const digest = createHash('sha256');
      for await (const chunk of createReadStream(temp)) digest.update(chunk as Buffer);
      if (digest.digest('hex') !== hash) {
        rmSync(temp, { force: true });
        throw blobCorrupt(hash, 'its bytes do not match their hash');
      }
      placeBlobFile(temp, blobsDir, hash, 'raw');
    },
  };
}

/** The hashes of `hashes` the blob store lacks; counts each probe as `remote.blobsProbed`. */
export function missingBlobs(blobsDir: string, hashes: Iterable<string>): string[] {
  const unique = [...new Set(hashes)];
  count('remote.blobsProbed', unique.length);
  return unique.filter((hash) => !hasBlob(blobsDir, hash));
}
