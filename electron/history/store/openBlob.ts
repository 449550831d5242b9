import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { createHash, type Hash } from 'node:crypto';
import { isHindsightError } from '../../../shared/errors.js';
import { openIfPresent } from '../openIfPresent.js';
import { faultPoint } from '../faultPoint.js';
import { fsError } from '../fsErrors.js';
import { count } from '../trace.js';
import { BlobUndecodable, COMPRESS_UP_TO, decompressBlob, mayBeCompressed } from '../codec/blobCodec.js';
import { blobPath, chunkListPath, compressedBlobPath } from './storeLayout.js';
import { CHUNK_FROM, ChunkListUndecodable, decodeChunkList, maxListBytes, type ChunkRef } from './chunkList.js';
import { damaged, type BlobPlace, type BlobSubject } from './blobDamage.js';

// Opening a stored blob in whichever form it is kept (blobCodec.ts, chunkList.ts; the file's name
// tells which), for the readers beside this file: a compressed blob (at most 1 MiB) is inflated
// whole, bounded by its recorded length, and hashed before a byte of it is handed on; a raw one is
// checked by its reader as it is copied; a chunked one is read a chunk at a time, each checked
// against its own hash. A compressed file is looked for first only where the recorded size allows
// one (blobCodec.mayBeCompressed). A blob that is gone is BLOB_MISSING; one whose length differs
// from what the index recorded, or whose bytes no longer hash to its name, is BLOB_CORRUPT.

export const PIECE = 1024 * 1024;

/**
 * A blob opened for reading: a raw file's descriptor, a compressed one's bytes (inflated and
 * checked), or a chunked one's list (its chunks read and checked one at a time: chunkedPieces).
 */
export type OpenedBlob =
  { form: 'raw'; fd: number; size: number } | { form: 'compressed'; bytes: Buffer } | { form: 'chunked'; chunks: ChunkRef[]; identity: string };

/**
 * Opens a blob for reading, in whichever form it is stored. `expectedSize` is the size the index
 * recorded: a blob of another length is damaged, and is refused before a byte is used. A
 * compressed blob (small: read whole) is inflated, bounded by its recorded length, and its hash
 * checked here; a raw one is checked by the caller as it reads.
 */
export function openBlob(place: BlobPlace, hash: string, expectedSize?: number, subject?: BlobSubject, asChunk = false): OpenedBlob {
  // Only a blob longer than CHUNK_FROM is kept as a chunk list; a chunk itself never is one.
  const chunked = !asChunk && (expectedSize === undefined || expectedSize > CHUNK_FROM) ? openChunkList(place, hash, expectedSize, subject) : undefined;
  if (chunked) return chunked;
  // A blob of a size that is never compressed (most files of a source tree are under 4 KiB) is
  // opened raw at once: no failed look for a compressed file first.
  const compressible = expectedSize === undefined || mayBeCompressed(expectedSize);
  const compressed = compressible ? openCompressed(place, hash, expectedSize, subject) : undefined;
  if (compressed) return compressed;
  if (compressible) faultPoint('read-between-looks');
  const fd = openRawBlob(place, hash);
  if (fd === undefined) {
    // A compaction (compact/) may have placed the compressed file and removed the raw one
    // between the two looks: the blob is there, in its other form.
    const converted = compressible ? openCompressed(place, hash, expectedSize, subject) : undefined;
    if (converted) return converted;
    throw damaged(place, hash, 'missing', undefined, subject);
  }
  count('store.rawLengthStats');
  const size = fstatSync(fd).size;
  if (expectedSize !== undefined && size !== expectedSize) {
    closeSync(fd);
    throw damaged(place, hash, 'corrupt', `${size} bytes where ${expectedSize} were stored`, subject);
  }
  return { form: 'raw', fd, size };
}

/** A raw blob's file opened for reading; undefined when there is none (ENOENT), any other failure typed. */
export function openRawBlob(place: BlobPlace, hash: string): number | undefined {
  const file = blobPath(place.dir, hash);
  try {
    return openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw fsError('read the stored contents', file, error);
    return undefined;
  }
}

/**
 * A chunked blob's list, decoded and checked against the recorded length; undefined when the blob
 * is not stored in chunks. A list longer than any list of that length could be is refused unread.
 */
export function openChunkList(place: BlobPlace, hash: string, expectedSize?: number, subject?: BlobSubject): OpenedBlob | undefined {
  count('store.chunkListLooks');
  const file = chunkListPath(place.dir, hash);
  const fd = openIfPresent(file, (error) => fsError('read the stored contents', file, error));
  if (fd === undefined) return undefined;
  try {
    const size = fstatSync(fd).size;
    const bound = maxListBytes(expectedSize ?? Number.MAX_SAFE_INTEGER);
    if (size > bound) throw damaged(place, hash, 'corrupt', `its chunk list is ${size} bytes, more than a list of its length takes`, subject);
    const chunks = decodeChunkList(readFully(fd, Buffer.allocUnsafe(size)), expectedSize);
    return { form: 'chunked', chunks, identity: fileIdentity(fd) };
  } catch (error) {
    if (error instanceof ChunkListUndecodable) throw damaged(place, hash, 'corrupt', error.why, subject);
    throw error;
  } finally {
    closeSync(fd);
  }
}

/**
 * One chunk's bytes, checked against its own hash. A chunk missing or damaged is the whole blob's
 * damage: BLOB_MISSING or BLOB_CORRUPT naming the blob (and the version read), the chunk in the
 * reason. The chunk itself is noted damaged too, so no copy trusts its name.
 */
export function chunkBytes(place: BlobPlace, hash: string, chunk: ChunkRef, subject?: BlobSubject): Buffer {
  const short = `${chunk.hash.slice(0, 12)}…`;
  try {
    const opened = openBlob(place, chunk.hash, chunk.size, undefined, true);
    if (opened.form !== 'raw') return (opened as { bytes: Buffer }).bytes;
    try {
      const bytes = readFully(opened.fd, Buffer.allocUnsafe(opened.size));
      if (bytes.length !== chunk.size || createHash('sha256').update(bytes).digest('hex') !== chunk.hash) throw damaged(place, chunk.hash, 'corrupt');
      return bytes;
    } finally {
      closeSync(opened.fd);
    }
  } catch (error) {
    if (!isHindsightError(error)) throw error;
    if (error.code === 'BLOB_MISSING') throw damaged(place, hash, 'missing', `its chunk ${short} is missing`, subject);
    if (error.code === 'BLOB_CORRUPT') throw damaged(place, hash, 'corrupt', `its chunk ${short} is damaged`, subject);
    throw error;
  }
}

/**
 * A chunked blob's bytes, a chunk at a time, each checked against its own hash; the last chunk is
 * held until the whole blob's bytes hashed to its name (a list naming the wrong chunks, or the
 * right ones in the wrong order, ends in BLOB_CORRUPT before its last byte is handed on).
 */
export function* chunkedPieces(place: BlobPlace, hash: string, chunks: readonly ChunkRef[], subject?: BlobSubject): Generator<Buffer> {
  const digest = createHash('sha256');
  let held: Buffer | undefined;
  for (const chunk of chunks) {
    const bytes = chunkBytes(place, hash, chunk, subject);
    digest.update(bytes);
    if (held) yield held;
    held = bytes;
  }
  if (digest.digest('hex') !== hash) throw damaged(place, hash, 'corrupt', 'its chunks do not make up its bytes', subject);
  if (held) yield held;
}

/** A compressed blob, inflated and checked; undefined when the blob is not stored compressed. */
function openCompressed(place: BlobPlace, hash: string, expectedSize?: number, subject?: BlobSubject): OpenedBlob | undefined {
  const stored = readCompressedFile(place, hash, subject);
  return stored === undefined ? undefined : { form: 'compressed', bytes: inflateChecked(place, hash, stored, expectedSize, subject) };
}

/**
 * A compressed blob's file as it is on disk; undefined when the blob is not stored compressed. A
 * file longer than any compressed blob is (one is kept only when it is smaller than its raw
 * bytes, at most COMPRESS_UP_TO) is damaged, and refused before it is read.
 */
export function readCompressedFile(place: BlobPlace, hash: string, subject?: BlobSubject): Buffer | undefined {
  count('store.compressedLooks');
  const file = compressedBlobPath(place.dir, hash);
  const fd = openIfPresent(file, (error) => fsError('read the stored contents', file, error));
  if (fd === undefined) return undefined;
  try {
    const size = fstatSync(fd).size;
    if (size > COMPRESS_UP_TO) throw damaged(place, hash, 'corrupt', `its compressed file is ${size} bytes, more than a compressed blob takes`, subject);
    return readFully(fd, Buffer.allocUnsafe(size));
  } finally {
    closeSync(fd);
  }
}

/** A compressed blob's raw bytes, their length and hash checked: anything else is BLOB_CORRUPT. */
export function inflateChecked(place: BlobPlace, hash: string, stored: Buffer, expectedSize?: number, subject?: BlobSubject): Buffer {
  let raw: Buffer;
  try {
    raw = decompressBlob(stored, expectedSize);
  } catch (error) {
    if (error instanceof BlobUndecodable) throw damaged(place, hash, 'corrupt', error.why, subject);
    throw error;
  }
  if (createHash('sha256').update(raw).digest('hex') !== hash) throw damaged(place, hash, 'corrupt', undefined, subject);
  return raw;
}

/** Reads an open file to its end from `position`, feeding `digest` (and `each` with every piece). */
export function digestFrom(fd: number, position: number, digest: Hash, buffer: Buffer, each?: (piece: Buffer) => void): void {
  let at = position;
  for (;;) {
    const n = readSync(fd, buffer, 0, buffer.length, at);
    if (n === 0) return;
    const piece = buffer.subarray(0, n);
    digest.update(piece);
    each?.(piece);
    at += n;
  }
}

/** Reads from the start of an open file into `buffer` until it is full or the file ends; answers the part filled. */
export function readFully(fd: number, buffer: Buffer): Buffer {
  let filled = 0;
  while (filled < buffer.length) {
    const n = readSync(fd, buffer, filled, buffer.length - filled, filled);
    if (n === 0) break;
    filled += n;
  }
  return buffer.subarray(0, filled);
}

export function fileIdentity(fd: number): string {
  const st = fstatSync(fd, { bigint: true });
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}
