import { closeSync, constants, copyFileSync, createReadStream, fstatSync, openSync, readSync, writeSync, type ReadStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { HindsightError } from '../../../shared/errors.js';
import { readFileHead } from '../fileHead.js';
import { fsError } from '../fsErrors.js';
import { blobPath } from './storeLayout.js';
import type { FsPath } from '../paths/fsPath.js';

// Every read of a stored blob goes through here: its head (the viewer), a stream (the CLI's show,
// verify), or a copy into a file being restored. A blob that is gone is BLOB_MISSING; one whose
// length differs from what the index recorded is BLOB_CORRUPT: one error, whoever reads, naming
// the hash so the UI can say which version's contents are affected.

export type BlobProblem = 'missing' | 'corrupt';

export function blobUnreadable(hash: string, problem: BlobProblem, why?: string): HindsightError {
  const short = `${hash.slice(0, 12)}…`;
  return problem === 'missing'
    ? new HindsightError('BLOB_MISSING', `The stored contents ${short} are missing from the history store.`, { hash })
    : new HindsightError('BLOB_CORRUPT', `The stored contents ${short} are damaged${why ? ` (${why})` : ''}; run verify to see every version affected.`, { hash });
}

/**
 * Opens a blob for reading. `expectedSize` is the size the index recorded: a blob of another
 * length is damaged, and is refused before a single byte of it is handed on.
 */
export function openBlob(blobsDir: string, hash: string, expectedSize?: number): number {
  const file = blobPath(blobsDir, hash);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw blobUnreadable(hash, 'missing');
    throw fsError('read the stored contents', file, error);
  }
  if (expectedSize !== undefined) {
    const size = fstatSync(fd).size;
    if (size !== expectedSize) {
      closeSync(fd);
      throw blobUnreadable(hash, 'corrupt', `${size} bytes where ${expectedSize} were stored`);
    }
  }
  return fd;
}

/** At most `limit` bytes from the start of a blob. */
export function readBlobHead(blobsDir: string, hash: string, limit: number, expectedSize?: number): Buffer {
  const fd = openBlob(blobsDir, hash, expectedSize);
  try {
    return readFileHead(fd, limit);
  } finally {
    closeSync(fd);
  }
}

/** A blob's bytes as a stream (opened now, so a missing blob throws here, not mid-stream). */
export function blobStream(blobsDir: string, hash: string, expectedSize?: number): ReadStream {
  const fd = openBlob(blobsDir, hash, expectedSize);
  return createReadStream('', { fd, highWaterMark: 1024 * 1024 });
}

/** Copies a whole blob into an open file through `buffer`; returns the bytes copied. */
export function copyBlobInto(blobsDir: string, hash: string, out: number, buffer: Buffer, expectedSize?: number): number {
  const source = openBlob(blobsDir, hash, expectedSize);
  let copied = 0;
  try {
    for (;;) {
      const n = readSync(source, buffer, 0, buffer.length, null);
      if (n === 0) break;
      let offset = 0;
      while (offset < n) offset += writeSync(out, buffer, offset, n - offset);
      copied += n;
    }
  } finally {
    closeSync(source);
  }
  return copied;
}

/**
 * Copies a whole blob into an open file through `buffer`, hashing what it copies: bytes that do
 * not match the blob's name are BLOB_CORRUPT (the caller discards what was written). For writes
 * that leave the store (a snapshot written into a new folder, an export), where a damaged blob
 * must never pass as good.
 */
export function copyCheckedBlobInto(blobsDir: string, hash: string, out: number, buffer: Buffer, expectedSize?: number): number {
  const source = openBlob(blobsDir, hash, expectedSize);
  const digest = createHash('sha256');
  let copied = 0;
  try {
    for (;;) {
      const n = readSync(source, buffer, 0, buffer.length, null);
      if (n === 0) break;
      digest.update(buffer.subarray(0, n));
      let offset = 0;
      while (offset < n) offset += writeSync(out, buffer, offset, n - offset);
      copied += n;
    }
  } finally {
    closeSync(source);
  }
  if (digest.digest('hex') !== hash) throw blobUnreadable(hash, 'corrupt', 'its bytes do not match their hash');
  return copied;
}

/**
 * A blob's bytes in fresh buffers of at most `chunk` bytes, hashed as they are read: after the
 * last one, bytes that do not match the blob's name throw BLOB_CORRUPT (an export stops there,
 * so a damaged blob never goes out as good).
 */
export function* checkedBlobChunks(blobsDir: string, hash: string, size: number, chunk: number): Generator<Buffer> {
  const source = openBlob(blobsDir, hash, size);
  const digest = createHash('sha256');
  try {
    for (let left = size; left > 0; ) {
      const buffer = Buffer.allocUnsafe(Math.min(left, chunk));
      const n = readSync(source, buffer, 0, buffer.length, null);
      if (n === 0) throw blobUnreadable(hash, 'corrupt', 'it ended early');
      digest.update(buffer.subarray(0, n));
      left -= n;
      yield n === buffer.length ? buffer : buffer.subarray(0, n);
    }
  } finally {
    closeSync(source);
  }
  if (digest.digest('hex') !== hash) throw blobUnreadable(hash, 'corrupt', 'its bytes do not match their hash');
}

/** Copies a blob to a new file at `target` (which must not exist): a clone where the file system can make one. */
export function cloneBlobTo(blobsDir: string, hash: string, target: FsPath, expectedSize?: number): void {
  closeSync(openBlob(blobsDir, hash, expectedSize));
  try {
    // FICLONE (not FORCE): a clone where the file system can, a plain copy where it cannot.
    copyFileSync(blobPath(blobsDir, hash), target, constants.COPYFILE_FICLONE | constants.COPYFILE_EXCL);
  } catch (error) {
    // Removed between the check and the copy: still the one error for a missing blob.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && (error as NodeJS.ErrnoException).path === blobPath(blobsDir, hash)) {
      throw blobUnreadable(hash, 'missing');
    }
    throw error;
  }
}

/** Hashes a stored blob as it is on disk now; undefined when it is missing. */
export async function hashBlob(blobsDir: string, hash: string): Promise<string | undefined> {
  let stream: ReadStream;
  try {
    stream = blobStream(blobsDir, hash);
  } catch (error) {
    if (error instanceof HindsightError && error.code === 'BLOB_MISSING') return undefined;
    throw error;
  }
  const digest = createHash('sha256');
  for await (const chunk of stream) digest.update(chunk as Buffer);
  return digest.digest('hex');
}
