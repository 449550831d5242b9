import { closeSync, fstatSync, readSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { COMPRESS_FROM } from '../codec/blobCodec.js';
import { damaged, type BlobPlace, type BlobSubject } from './blobDamage.js';
import { chunkedPieces, openBlob, openRawBlob, readFully } from './openBlob.js';

/** A buffer a caller lends to readBlobWhole, grown as needed: one allocation for many reads. */
export interface ReadScratch {
  buffer: Buffer;
}

/**
 * A whole blob, checked against its hash, read into the caller's scratch buffer: the bytes are
 * valid until the next read into the same scratch. For a caller that reads many blobs in a row
 * and keeps none of their bytes (the search scans thousands): no buffer allocated per blob (a
 * head reader's is the blob's size plus a 1 MiB piece to hash any rest), and no file identity
 * asked (the bytes read are the whole blob, so they are hashed every time).
 */
export function readBlobWhole(place: BlobPlace, hash: string, expectedSize: number, scratch: ReadScratch, subject?: BlobSubject): Buffer {
  if (expectedSize <= COMPRESS_FROM) return readSmallRaw(place, hash, expectedSize, scratch, subject);
  const opened = openBlob(place, hash, expectedSize, subject);
  if (opened.form === 'compressed') return opened.bytes;
  if (opened.form === 'chunked') {
    if (scratch.buffer.length < expectedSize) scratch.buffer = Buffer.allocUnsafe(Math.max(expectedSize, scratch.buffer.length * 2));
    let at = 0;
    for (const piece of chunkedPieces(place, hash, opened.chunks, subject)) at += piece.copy(scratch.buffer, at);
    return scratch.buffer.subarray(0, at);
  }
  const { fd, size } = opened;
  try {
    if (scratch.buffer.length < size) scratch.buffer = Buffer.allocUnsafe(Math.max(size, scratch.buffer.length * 2));
    const bytes = readFully(fd, scratch.buffer.subarray(0, size));
    // Its length was checked when it was opened (a blob is written once and renamed into place).
    if (createHash('sha256').update(bytes).digest('hex') !== hash) throw damaged(place, hash, 'corrupt', undefined, subject);
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/**
 * A blob too small to be kept compressed (at most 4 KiB: always one raw file), read whole with
 * open, read and close: its length is told by the read (one byte more is asked for than the
 * index recorded), not by a stat, a quarter of the system calls per blob of an export's or a
 * search's long list of small files. A read that stops short is read on; one that returns the
 * byte past the recorded length finds the file too long.
 */
function readSmallRaw(place: BlobPlace, hash: string, expectedSize: number, scratch: ReadScratch, subject?: BlobSubject): Buffer {
  const fd = openRawBlob(place, hash);
  if (fd === undefined) throw damaged(place, hash, 'missing', undefined, subject);
  try {
    if (scratch.buffer.length <= expectedSize) scratch.buffer = Buffer.allocUnsafe(Math.max(expectedSize + 1, scratch.buffer.length * 2));
    let filled = 0;
    for (;;) {
      const n = readSync(fd, scratch.buffer, filled, expectedSize + 1 - filled, filled);
      filled += n;
      if (n === 0 || filled >= expectedSize) break;
    }
    if (filled !== expectedSize) {
      const size = fstatSync(fd).size;
      throw damaged(place, hash, 'corrupt', `${size} bytes where ${expectedSize} were stored`, subject);
    }
    const bytes = scratch.buffer.subarray(0, filled);
    if (createHash('sha256').update(bytes).digest('hex') !== hash) throw damaged(place, hash, 'corrupt', undefined, subject);
    return bytes;
  } finally {
    closeSync(fd);
  }
}
