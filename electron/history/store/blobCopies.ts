import { closeSync, constants, copyFileSync, createReadStream, openSync, readSync, writeFileSync, type ReadStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { PRIVATE_FILE_MODE } from '../privateModes.js';
import type { FsPath } from '../paths/fsPath.js';
import { blobPath } from './storeLayout.js';
import { writeAll } from './storeBytes.js';
import { damaged, type BlobPlace, type BlobSubject } from './blobDamage.js';
import { chunkedPieces, digestFrom, openBlob, PIECE } from './openBlob.js';

// The readers that hand a blob's bytes on as they go: a stream (the CLI's show), a copy into a
// file being restored, fresh pieces (an export, a push), a clone. Each checks the bytes against
// the blob's name while it copies; a stream holds its last piece back until the hash is checked,
// so a blob of up to one piece (1 MiB) never hands out a single wrong byte, and a longer one ends
// in the error.

/**
 * A blob's bytes as a stream, checked against its hash: opened now (a missing blob throws here,
 * not mid-stream); the last piece is held until the hash matched, and a mismatch ends the stream
 * with BLOB_CORRUPT instead.
 */
export function blobStream(place: BlobPlace, hash: string, expectedSize?: number, subject?: BlobSubject): Readable {
  const opened = openBlob(place, hash, expectedSize, subject);
  if (opened.form === 'compressed') return Readable.from([opened.bytes], { objectMode: false });
  if (opened.form === 'chunked') return Readable.from(chunkedPieces(place, hash, opened.chunks, subject), { objectMode: false });
  const source = createReadStream('', { fd: opened.fd, highWaterMark: PIECE });
  return Readable.from(checkedPieces(source, place, hash, subject), { objectMode: false });
}

async function* checkedPieces(source: ReadStream, place: BlobPlace, hash: string, subject?: BlobSubject): AsyncGenerator<Buffer> {
  const digest = createHash('sha256');
  let held: Buffer | undefined;
  for await (const chunk of source) {
    digest.update(chunk as Buffer);
    if (held) yield held;
    held = chunk as Buffer;
  }
  if (digest.digest('hex') !== hash) throw damaged(place, hash, 'corrupt', undefined, subject);
  if (held) yield held;
}

/**
 * Copies a whole blob into an open file through `buffer`, hashing what it copies; returns the
 * bytes copied. A mismatch throws BLOB_CORRUPT after the copy: the caller drops the file.
 */
export function copyBlobInto(place: BlobPlace, hash: string, out: number, buffer: Buffer, expectedSize?: number, subject?: BlobSubject): number {
  const opened = openBlob(place, hash, expectedSize, subject);
  if (opened.form === 'compressed') {
    writeAll(out, opened.bytes);
    return opened.bytes.length;
  }
  if (opened.form === 'chunked') {
    // A chunk at a time: a file of any length is restored holding at most two chunks in memory.
    let written = 0;
    for (const piece of chunkedPieces(place, hash, opened.chunks, subject)) {
      writeAll(out, piece);
      written += piece.length;
    }
    return written;
  }
  const source = opened.fd;
  const digest = createHash('sha256');
  let copied = 0;
  try {
    digestFrom(source, 0, digest, buffer, (piece) => {
      writeAll(out, piece);
      copied += piece.length;
    });
  } finally {
    closeSync(source);
  }
  if (digest.digest('hex') !== hash) throw damaged(place, hash, 'corrupt', undefined, subject);
  return copied;
}

/**
 * A blob's bytes in fresh buffers of at most `chunk` bytes, hashed as they are read: after the
 * last one, bytes that do not match the blob's name throw BLOB_CORRUPT (an export stops there,
 * so a damaged blob never goes out as good).
 */
export function* checkedBlobChunks(place: BlobPlace, hash: string, size: number, chunk: number, subject?: BlobSubject): Generator<Buffer> {
  const opened = openBlob(place, hash, size, subject);
  if (opened.form === 'compressed') {
    for (let at = 0; at < opened.bytes.length; at += chunk) yield opened.bytes.subarray(at, at + chunk);
    return;
  }
  if (opened.form === 'chunked') {
    for (const piece of chunkedPieces(place, hash, opened.chunks, subject)) {
      for (let at = 0; at < piece.length; at += chunk) yield piece.subarray(at, at + chunk);
    }
    return;
  }
  const source = opened.fd;
  const digest = createHash('sha256');
  try {
    for (let left = size; left > 0;) {
      const buffer = Buffer.allocUnsafe(Math.min(left, chunk));
      const n = readSync(source, buffer, 0, buffer.length, null);
      if (n === 0) throw damaged(place, hash, 'corrupt', 'it ended early', subject);
      digest.update(buffer.subarray(0, n));
      left -= n;
      yield n === buffer.length ? buffer : buffer.subarray(0, n);
    }
  } finally {
    closeSync(source);
  }
  if (digest.digest('hex') !== hash) throw damaged(place, hash, 'corrupt', undefined, subject);
}

/**
 * Copies a blob to a new file at `target` (which must not exist): a clone where the file system
 * can make one. The copy is then hashed (a clone shares the damaged extents of a damaged blob);
 * a mismatch throws BLOB_CORRUPT and the caller drops the file.
 */
export function cloneBlobTo(place: BlobPlace, hash: string, target: FsPath, expectedSize?: number, subject?: BlobSubject): void {
  const opened = openBlob(place, hash, expectedSize, subject);
  if (opened.form === 'compressed') {
    // The bytes inflated are checked already; a new file the mode a clone of a blob would have.
    writeFileSync(target, opened.bytes, { flag: 'wx', mode: PRIVATE_FILE_MODE });
    return;
  }
  if (opened.form === 'chunked') {
    const out = openSync(target, 'wx', PRIVATE_FILE_MODE);
    try {
      for (const piece of chunkedPieces(place, hash, opened.chunks, subject)) writeAll(out, piece);
    } finally {
      closeSync(out);
    }
    return;
  }
  closeSync(opened.fd);
  try {
    // FICLONE (not FORCE): a clone where the file system can, a plain copy where it cannot.
    copyFileSync(blobPath(place.dir, hash), target, constants.COPYFILE_FICLONE | constants.COPYFILE_EXCL);
  } catch (error) {
    // Removed between the check and the copy: still the one error for a missing blob.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && (error as NodeJS.ErrnoException).path === blobPath(place.dir, hash)) {
      throw damaged(place, hash, 'missing', undefined, subject);
    }
    throw error;
  }
  const copy = openSync(target, 'r');
  const digest = createHash('sha256');
  try {
    digestFrom(copy, 0, digest, Buffer.allocUnsafe(PIECE));
  } finally {
    closeSync(copy);
  }
  if (digest.digest('hex') !== hash) throw damaged(place, hash, 'corrupt', undefined, subject);
}
