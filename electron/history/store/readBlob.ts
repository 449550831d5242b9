import { readFileSync, createReadStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { HindsightError } from '../../../shared/errors.js';
import { blobPath } from './storeLayout.js';

// Reading stored bytes back. A blob missing from disk is a typed error naming the hash, so the UI
// can say "this version's contents are missing" instead of failing vaguely.

/** The error for a version whose stored contents are gone: the UI names it, it never crashes. */
export function blobMissing(hash: string): HindsightError {
  return new HindsightError('BLOB_MISSING', `The stored contents ${hash.slice(0, 12)}… are missing from the history store.`, { hash });
}

export function readBlob(blobsDir: string, hash: string): Buffer {
  try {
    return readFileSync(blobPath(blobsDir, hash));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw blobMissing(hash);
    }
    throw error;
  }
}

/** Hashes a stored blob as it is on disk now; undefined when it is missing. */
export async function hashBlob(blobsDir: string, hash: string): Promise<string | undefined> {
  const digest = createHash('sha256');
  try {
    for await (const chunk of createReadStream(blobPath(blobsDir, hash), { highWaterMark: 1024 * 1024 })) {
      digest.update(chunk as Buffer);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return digest.digest('hex');
}
