import { createHash } from 'node:crypto';
import { zstdDecompressSync } from 'node:zlib';
import { count } from '../trace.js';
import { MAX_CHUNK } from './fastCdc.js';
import { ZstdContext } from './zstdContext.js';

/**
 * How a blob's bytes are kept: as they are, compressed (this codec), or as a list of chunks that
 * are blobs of their own (store/chunkList.ts: files longer than CHUNK_FROM).
 */
export type BlobForm = 'raw' | 'compressed' | 'chunked';

// The compressed form of a blob: a 12-byte header (the magic `hzst`, naming the codec, then the
// raw length as an unsigned 64-bit big-endian integer) followed by one zstd frame. The file's
// name (`<sha256 of the raw bytes>.zst`, storeLayout.ts) tells the form, so a raw blob whose
// bytes happen to start with the magic is never taken for a compressed one.
//
// Why zstd level 3 (docs/PERFORMANCE.md, `npm run bench:codec`): on source trees and logs it
// compresses at about 100-170 MB/s and decompresses at 300-600 MB/s with about Brotli q3's ratio;
// Brotli q1-3 compresses slower and decompresses several times slower, deflate compresses less.
// Node 22 has zstd in its own zlib: no dependency.
//
// A blob is kept compressed only when that saves at least a tenth of its bytes and it is longer
// than one file-system block (4 KiB): a smaller file takes a block on disk either way, so
// compressing it would cost time and save nothing. Reads are bounded by the recorded raw length:
// a frame that inflates past it (damage, or a bomb) is refused once it passes it, never
// inflated whole.
//
// Trace counters `store.compressions` and `store.decompressions` count the frames made and
// inflated: carrying a compressed blob to a bundle or a remote and back runs neither where it
// can (docs/BUNDLE.md, docs/REMOTE.md).

const MAGIC = Buffer.from('hzst', 'latin1');
export const COMPRESSED_HEADER = 12;
/**
 * Blobs at most this long may be compressed (read whole into memory); longer ones stay raw. The
 * longest chunk (fastCdc.ts MAX_CHUNK): every chunk of a large file may be compressed.
 */
export const COMPRESS_UP_TO = MAX_CHUNK;
/** Blobs at most this long stay raw: one file-system block whatever is done to them. */
export const COMPRESS_FROM = 4096;
/** Compressed, a blob must take at most this share of its raw bytes, or it stays raw. */
const KEEP_SHARE = 0.9;
const LEVEL = 3;
/** This thread's compression context, kept for every blob it compresses. */
const context = new ZstdContext(LEVEL);

/** Whether a blob of `size` raw bytes may be kept compressed (outside this range it is always raw). */
export function mayBeCompressed(size: number): boolean {
  return size > COMPRESS_FROM && size <= COMPRESS_UP_TO;
}

/** A compressed form that cannot be what its name says: the reader turns it into BLOB_CORRUPT. */
export class BlobUndecodable extends Error {
  constructor(readonly why: string) {
    super(why);
    this.name = 'BlobUndecodable';
  }
}

/** The compressed form of `raw` (header and frame), or undefined when it is to be kept raw. */
export function compressBlob(raw: Uint8Array): Buffer | undefined {
  const lent = compressBlobLent(raw);
  return lent ? Buffer.from(lent) : undefined;
}

/**
 * compressBlob's form lent from this thread's compression context (zstdContext.ts): valid until
 * the next compression on this thread, so it is written before anything else is compressed. The
 * copy workers file chunks through it and allocate nothing per chunk.
 */
export function compressBlobLent(raw: Uint8Array): Buffer | undefined {
  if (!mayBeCompressed(raw.length)) return undefined;
  count('store.compressions');
  // The frame's header records the raw length (zstd's own, and ours): the frame is made in one
  // call over the whole blob, so zstd sizes its window and tables to it, as a pledged size would.
  const form = context.compressLent(raw, COMPRESSED_HEADER);
  if (form.length > raw.length * KEEP_SHARE) return undefined;
  MAGIC.copy(form, 0);
  form.writeBigUInt64BE(BigInt(raw.length), 4);
  return form;
}

/** The raw length a compressed form's header records; throws BlobUndecodable when it is no header of ours. */
export function compressedRawLength(stored: Buffer): number {
  if (stored.length < COMPRESSED_HEADER || !stored.subarray(0, 4).equals(MAGIC)) throw new BlobUndecodable('its compressed form has no valid header');
  const length = stored.readBigUInt64BE(4);
  if (length > BigInt(COMPRESS_UP_TO)) throw new BlobUndecodable(`its header records ${length} bytes, more than a compressed blob holds`);
  return Number(length);
}

/**
 * The raw bytes of a compressed form, exactly its recorded length (and `expectedSize`, the length
 * the index recorded, when given): anything else throws BlobUndecodable. The caller checks the hash.
 */
export function decompressBlob(stored: Buffer, expectedSize?: number): Buffer {
  const length = compressedRawLength(stored);
  if (expectedSize !== undefined && length !== expectedSize) throw new BlobUndecodable(`its header records ${length} bytes where ${expectedSize} were stored`);
  let raw: Buffer;
  count('store.decompressions');
  try {
    // One output piece one byte longer than the recorded length: zlib's 16 KiB pieces were
    // each allocated and then copied together (a fifth of the inflate's CPU on source files);
    // a frame that inflates past the length still fills the byte past it and is refused.
    raw = zstdDecompressSync(stored.subarray(COMPRESSED_HEADER), { maxOutputLength: Math.max(length, 1), chunkSize: Math.max(length + 1, 64) });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new BlobUndecodable(`it inflates past its recorded ${length} bytes`);
    throw new BlobUndecodable(`it does not decompress (${(error as Error).message})`);
  }
  if (raw.length !== length) throw new BlobUndecodable(`it inflates to ${raw.length} bytes where ${length} were recorded`);
  return raw;
}

/**
 * The raw bytes of a compressed form that came from outside the store (a bundle's record, a
 * remote pack's entry), checked as a stored one is read: no longer than any compressed blob,
 * inflated no further than `size` (its header must record it), and hashing to `hash`. Anything
 * else throws BlobUndecodable, before a byte past the bound is inflated.
 */
export function checkCompressedForm(hash: string, size: number, stored: Buffer): Buffer {
  if (stored.length > COMPRESS_UP_TO) throw new BlobUndecodable(`its compressed form is ${stored.length} bytes, more than a compressed blob takes`);
  const raw = decompressBlob(stored, size);
  if (createHash('sha256').update(raw).digest('hex') !== hash) throw new BlobUndecodable('its bytes do not match their hash');
  return raw;
}

/**
 * How a checked compressed form from outside is kept (`raw` the bytes it inflated to): as it came
 * where this store keeps a blob of that size compressed, so nothing is compressed again; raw
 * otherwise (a reader looks for a compressed file only at those sizes).
 */
export function formToKeep(raw: Buffer, stored: Buffer): { form: BlobForm; bytes: Buffer } {
  return mayBeCompressed(raw.length) ? { form: 'compressed', bytes: stored } : { form: 'raw', bytes: raw };
}
