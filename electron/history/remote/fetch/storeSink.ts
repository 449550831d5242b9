import { createHash } from 'node:crypto';
import { closeSync, createReadStream, existsSync, openSync, rmSync, writeSync } from 'node:fs';
import { blobPath } from '../../store/storeLayout.js';
import { count } from '../../trace.js';
import { newTempPath, openTempBeside, placeBlob } from '../../store/placeBlob.js';
import { blobCorrupt } from '../layout/packFormat.js';
import type { BlobSink } from './fetchBlobs.js';

// Blobs fetched from a remote go into the project's blob store like filed ones: a private temp,
// then a rename to the final name, only after their bytes matched their hash (packed blobs are
// checked by unpackBlob before they get here; a large blob's file is hashed here). Whatever the
// server sent, a damaged blob never takes a blob's name.

export function storeSink(blobsDir: string): BlobSink {
  return {
    put(hash, bytes) {
      const finalPath = blobPath(blobsDir, hash);
      if (existsSync(finalPath)) return;
      const { temp, fd } = openTempBeside(finalPath);
      try {
        for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset, bytes.length - offset);
      } catch (error) {
        closeSync(fd);
        rmSync(temp, { force: true });
        throw error;
      }
      closeSync(fd);
      placeBlob(temp, finalPath);
    },
    tempFor() {
      // Made private before the download opens it (it keeps this mode); swept like any store temp if left behind.
      const temp = newTempPath(blobsDir);
      closeSync(openSync(temp, 'wx', 0o600));
      return temp;
    },
    async placeChecked(hash, temp) {
      const digest = createHash('sha256');
      for await (const chunk of createReadStream(temp)) digest.update(chunk as Buffer);
      if (digest.digest('hex') !== hash) {
        rmSync(temp, { force: true });
        throw blobCorrupt(hash, 'its bytes do not match their hash');
      }
      placeBlob(temp, blobPath(blobsDir, hash));
    },
  };
}

/** The hashes of `hashes` the blob store lacks; counts each probe as `remote.blobsProbed`. */
export function missingBlobs(blobsDir: string, hashes: Iterable<string>): string[] {
  const unique = [...new Set(hashes)];
  count('remote.blobsProbed', unique.length);
  return unique.filter((hash) => !existsSync(blobPath(blobsDir, hash)));
}
