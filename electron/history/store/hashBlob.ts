import { createReadStream, type ReadStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { isHindsightError } from '../../../shared/errors.js';
import { fsError } from '../fsErrors.js';
import { BlobUndecodable, decompressBlob } from '../codec/blobCodec.js';
import { blobPath } from './storeLayout.js';
import type { BlobPlace } from './blobDamage.js';
import { chunkBytes, openChunkList, PIECE, readCompressedFile } from './openBlob.js';

/**
 * Hashes a stored blob's raw bytes as they are on disk now; undefined when it is missing. A
 * compressed blob that does not inflate to its recorded length answers no hash at all (''): it
 * matches no name.
 */
export async function hashBlob(place: BlobPlace, hash: string): Promise<string | undefined> {
  const chunked = hashChunked(place, hash);
  if (chunked !== null) return chunked;
  let stored: Buffer | undefined;
  try {
    stored = readCompressedFile(place, hash);
    if (stored !== undefined) return createHash('sha256').update(decompressBlob(stored)).digest('hex');
  } catch (error) {
    if (error instanceof BlobUndecodable || (isHindsightError(error) && error.code === 'BLOB_CORRUPT')) return '';
    throw error;
  }
  let stream: ReadStream;
  try {
    stream = createReadStream(blobPath(place.dir, hash), { highWaterMark: PIECE });
    await new Promise<void>((resolve, reject) => stream.once('open', () => resolve()).once('error', reject));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw fsError('read the stored contents', blobPath(place.dir, hash), error);
  }
  const digest = createHash('sha256');
  for await (const chunk of stream) digest.update(chunk as Buffer);
  return digest.digest('hex');
}

/**
 * A chunked blob's hash as its chunks make it up now: undefined when a chunk is missing (the
 * blob's bytes are not all in the store), '' when the list or a chunk is damaged; null when the
 * blob is not stored in chunks.
 */
function hashChunked(place: BlobPlace, hash: string): string | undefined | null {
  try {
    const opened = openChunkList(place, hash);
    if (opened?.form !== 'chunked') return null;
    const digest = createHash('sha256');
    for (const chunk of opened.chunks) digest.update(chunkBytes(place, hash, chunk));
    return digest.digest('hex');
  } catch (error) {
    if (isHindsightError(error) && error.code === 'BLOB_MISSING') return undefined;
    if (isHindsightError(error) && error.code === 'BLOB_CORRUPT') return '';
    throw error;
  }
}
