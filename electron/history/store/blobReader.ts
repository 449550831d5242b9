import { closeSync, constants, copyFileSync, createReadStream, fstatSync, openSync, readSync, writeFileSync, type ReadStream } from 'node:fs';
import { openIfPresent } from '../openIfPresent.js';
import { createHash, type Hash } from 'node:crypto';
import { Readable } from 'node:stream';
import { HindsightError, isHindsightError } from '../../../shared/errors.js';
import { faultPoint } from '../faultPoint.js';
import { fsError } from '../fsErrors.js';
import { count } from '../trace.js';
import { PRIVATE_FILE_MODE } from '../privateModes.js';
import { BlobUndecodable, COMPRESS_FROM, COMPRESS_UP_TO, compressedRawLength, decompressBlob, mayBeCompressed } from './blobCodec.js';
import { blobPath, chunkListPath, compressedBlobPath } from './storeLayout.js';
import { CHUNK_FROM, ChunkListUndecodable, decodeChunkList, maxListBytes, type ChunkRef } from './chunkList.js';
import { writeAll } from './storeBytes.js';
import type { FsPath } from '../paths/fsPath.js';

// Every read of a stored blob goes through here: its head (the viewer), a stream (the CLI's show),
// a copy into a file being restored, a hash (verify). A blob is stored raw or compressed
// (blobCodec.ts; the file's name tells which); every reader gets the raw bytes, checked the same:
// a compressed blob (at most 1 MiB) is inflated whole, bounded by its recorded length, and
// hashed before a byte of it is handed on; a raw one is checked as it is copied. A compressed
// file is looked for first only where the recorded size allows one (blobCodec.mayBeCompressed).
// Every path that hands bytes on checks them
// against the blob's name while it copies: a blob that is gone is BLOB_MISSING; one whose length
// differs from what the index recorded, or whose bytes no longer hash to its name, is
// BLOB_CORRUPT: one error, whoever reads, naming the version when the reader knows it and the
// hash. A stream holds its last piece back until the hash is checked, so a blob of up to one
// piece (1 MiB) never hands out a single wrong byte, and a longer one ends in the error.
//
// A store that is open listens for damage found here (onBlobDamage) and records it, so the next
// copy of the right bytes rewrites the blob instead of trusting its name.

export type BlobProblem = 'missing' | 'corrupt';

/** The version whose bytes are being read, for the error's message. */
export interface BlobSubject {
  path: string;
  versionId?: number | null;
}

const PIECE = 1024 * 1024;

type DamageListener = (hash: string, problem: BlobProblem) => void;
const damageListeners = new Map<string, Set<DamageListener>>();

/** Tells `listener` of every missing or corrupt blob a reader finds in `blobsDir`; returns the unsubscribe. */
export function onBlobDamage(blobsDir: string, listener: DamageListener): () => void {
  let listeners = damageListeners.get(blobsDir);
  if (!listeners) damageListeners.set(blobsDir, (listeners = new Set()));
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && damageListeners.get(blobsDir) === listeners) damageListeners.delete(blobsDir);
  };
}

export function blobUnreadable(hash: string, problem: BlobProblem, why?: string, subject?: BlobSubject): HindsightError {
  const short = `${hash.slice(0, 12)}…`;
  const what = subject ? `The stored contents of ${subject.path}${subject.versionId ? ` (version ${subject.versionId})` : ''}` : `The stored contents ${short}`;
  const details = { hash, ...(subject ? { path: subject.path, versionId: subject.versionId ?? null } : {}) };
  return problem === 'missing'
    ? new HindsightError(
        'BLOB_MISSING',
        `${what} are missing from the history store (blob ${short}${why ? `: ${why}` : ''}); run verify --repair to look for them in the folder.`,
        details,
      )
    : new HindsightError(
        'BLOB_CORRUPT',
        `${what} are damaged (blob ${short}: ${why ?? 'its bytes no longer match its hash'}); they were not used. Run verify --repair to look for the right bytes in the folder.`,
        details,
      );
}

/** The typed error for damage found in `blobsDir`, after telling the store's listeners. */
function damaged(blobsDir: string, hash: string, problem: BlobProblem, why?: string, subject?: BlobSubject): HindsightError {
  noteBlobDamage(blobsDir, hash, problem);
  return blobUnreadable(hash, problem, why, subject);
}

/** Tells the store's listeners of damage found in `blobsDir` (also by a reader on another thread: a push's pack workers). */
export function noteBlobDamage(blobsDir: string, hash: string, problem: BlobProblem): void {
  for (const listener of damageListeners.get(blobsDir) ?? []) {
    try {
      listener(hash, problem);
    } catch {
      // Recording the damage is a help, not a condition: the reader still gets its error.
    }
  }
}

/**
 * A blob opened for reading: a raw file's descriptor, a compressed one's bytes (inflated and
 * checked), or a chunked one's list (its chunks read and checked one at a time: chunkedPieces).
 */
type OpenedBlob = { form: 'raw'; fd: number; size: number } | { form: 'compressed'; bytes: Buffer } | { form: 'chunked'; chunks: ChunkRef[]; identity: string };

/**
 * Opens a blob for reading, in whichever form it is stored. `expectedSize` is the size the index
 * recorded: a blob of another length is damaged, and is refused before a byte is used. A
 * compressed blob (small: read whole) is inflated, bounded by its recorded length, and its hash
 * checked here; a raw one is checked by the caller as it reads.
 */
function openBlob(blobsDir: string, hash: string, expectedSize?: number, subject?: BlobSubject, asChunk = false): OpenedBlob {
  // Only a blob longer than CHUNK_FROM is kept as a chunk list; a chunk itself never is one.
  const chunked = !asChunk && (expectedSize === undefined || expectedSize > CHUNK_FROM) ? openChunkList(blobsDir, hash, expectedSize, subject) : undefined;
  if (chunked) return chunked;
  // A blob of a size that is never compressed (most files of a source tree are under 4 KiB) is
  // opened raw at once: no failed look for a compressed file first.
  const compressible = expectedSize === undefined || mayBeCompressed(expectedSize);
  const compressed = compressible ? openCompressed(blobsDir, hash, expectedSize, subject) : undefined;
  if (compressed) return compressed;
  if (compressible) faultPoint('read-between-looks');
  const fd = openRawBlob(blobsDir, hash);
  if (fd === undefined) {
    // A compaction (compact/) may have placed the compressed file and removed the raw one
    // between the two looks: the blob is there, in its other form.
    const converted = compressible ? openCompressed(blobsDir, hash, expectedSize, subject) : undefined;
    if (converted) return converted;
    throw damaged(blobsDir, hash, 'missing', undefined, subject);
  }
  count('store.rawLengthStats');
  const size = fstatSync(fd).size;
  if (expectedSize !== undefined && size !== expectedSize) {
    closeSync(fd);
    throw damaged(blobsDir, hash, 'corrupt', `${size} bytes where ${expectedSize} were stored`, subject);
  }
  return { form: 'raw', fd, size };
}

/** A raw blob's file opened for reading; undefined when there is none (ENOENT), any other failure typed. */
function openRawBlob(blobsDir: string, hash: string): number | undefined {
  const file = blobPath(blobsDir, hash);
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
function openChunkList(blobsDir: string, hash: string, expectedSize?: number, subject?: BlobSubject): OpenedBlob | undefined {
  count('store.chunkListLooks');
  const file = chunkListPath(blobsDir, hash);
  const fd = openIfPresent(file, (error) => fsError('read the stored contents', file, error));
  if (fd === undefined) return undefined;
  try {
    const size = fstatSync(fd).size;
    const bound = maxListBytes(expectedSize ?? Number.MAX_SAFE_INTEGER);
    if (size > bound) throw damaged(blobsDir, hash, 'corrupt', `its chunk list is ${size} bytes, more than a list of its length takes`, subject);
    const chunks = decodeChunkList(readFully(fd, Buffer.allocUnsafe(size)), expectedSize);
    return { form: 'chunked', chunks, identity: fileIdentity(fd) };
  } catch (error) {
    if (error instanceof ChunkListUndecodable) throw damaged(blobsDir, hash, 'corrupt', error.why, subject);
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
function chunkBytes(blobsDir: string, hash: string, chunk: ChunkRef, subject?: BlobSubject): Buffer {
  const short = `${chunk.hash.slice(0, 12)}…`;
  try {
    const opened = openBlob(blobsDir, chunk.hash, chunk.size, undefined, true);
    if (opened.form !== 'raw') return (opened as { bytes: Buffer }).bytes;
    try {
      const bytes = readFully(opened.fd, Buffer.allocUnsafe(opened.size));
      if (bytes.length !== chunk.size || createHash('sha256').update(bytes).digest('hex') !== chunk.hash) throw damaged(blobsDir, chunk.hash, 'corrupt');
      return bytes;
    } finally {
      closeSync(opened.fd);
    }
  } catch (error) {
    if (!isHindsightError(error)) throw error;
    if (error.code === 'BLOB_MISSING') throw damaged(blobsDir, hash, 'missing', `its chunk ${short} is missing`, subject);
    if (error.code === 'BLOB_CORRUPT') throw damaged(blobsDir, hash, 'corrupt', `its chunk ${short} is damaged`, subject);
    throw error;
  }
}

/**
 * A chunked blob's bytes, a chunk at a time, each checked against its own hash; the last chunk is
 * held until the whole blob's bytes hashed to its name (a list naming the wrong chunks, or the
 * right ones in the wrong order, ends in BLOB_CORRUPT before its last byte is handed on).
 */
function* chunkedPieces(blobsDir: string, hash: string, chunks: readonly ChunkRef[], subject?: BlobSubject): Generator<Buffer> {
  const digest = createHash('sha256');
  let held: Buffer | undefined;
  for (const chunk of chunks) {
    const bytes = chunkBytes(blobsDir, hash, chunk, subject);
    digest.update(bytes);
    if (held) yield held;
    held = bytes;
  }
  if (digest.digest('hex') !== hash) throw damaged(blobsDir, hash, 'corrupt', 'its chunks do not make up its bytes', subject);
  if (held) yield held;
}

/** A compressed blob, inflated and checked; undefined when the blob is not stored compressed. */
function openCompressed(blobsDir: string, hash: string, expectedSize?: number, subject?: BlobSubject): OpenedBlob | undefined {
  const stored = readCompressedFile(blobsDir, hash, subject);
  return stored === undefined ? undefined : { form: 'compressed', bytes: inflateChecked(blobsDir, hash, stored, expectedSize, subject) };
}

/**
 * A compressed blob's file as it is on disk; undefined when the blob is not stored compressed. A
 * file longer than any compressed blob is (one is kept only when it is smaller than its raw
 * bytes, at most COMPRESS_UP_TO) is damaged, and refused before it is read.
 */
function readCompressedFile(blobsDir: string, hash: string, subject?: BlobSubject): Buffer | undefined {
  count('store.compressedLooks');
  const file = compressedBlobPath(blobsDir, hash);
  const fd = openIfPresent(file, (error) => fsError('read the stored contents', file, error));
  if (fd === undefined) return undefined;
  try {
    const size = fstatSync(fd).size;
    if (size > COMPRESS_UP_TO) throw damaged(blobsDir, hash, 'corrupt', `its compressed file is ${size} bytes, more than a compressed blob takes`, subject);
    return readFully(fd, Buffer.allocUnsafe(size));
  } finally {
    closeSync(fd);
  }
}

/** A compressed blob's raw bytes, their length and hash checked: anything else is BLOB_CORRUPT. */
function inflateChecked(blobsDir: string, hash: string, stored: Buffer, expectedSize?: number, subject?: BlobSubject): Buffer {
  let raw: Buffer;
  try {
    raw = decompressBlob(stored, expectedSize);
  } catch (error) {
    if (error instanceof BlobUndecodable) throw damaged(blobsDir, hash, 'corrupt', error.why, subject);
    throw error;
  }
  if (createHash('sha256').update(raw).digest('hex') !== hash) throw damaged(blobsDir, hash, 'corrupt', undefined, subject);
  return raw;
}

/**
 * A blob as it is kept: a compressed blob's file as it is (the store's compressed form, header
 * and frame), or `raw` for anything else (a raw blob, or any form that is not one compressed
 * file), whose bytes the caller reads through the checked readers here. This is how an export and
 * a push carry a compressed blob without inflating and compressing it again. The header is
 * always checked against `size` (a damaged one is BLOB_CORRUPT); `inflate` also inflates it,
 * bounded by `size`, and checks its hash (a push: a damaged blob never reaches the remote); an
 * export leaves that to the importer, which checks every compressed form it takes.
 */
export function readStoredForm(blobsDir: string, hash: string, size: number, options: { inflate?: boolean; subject?: BlobSubject } = {}): StoredForm {
  if (!mayBeCompressed(size)) return { form: 'raw' };
  const { subject } = options;
  const stored = readCompressedFile(blobsDir, hash, subject);
  if (stored === undefined) return { form: 'raw' };
  if (options.inflate) inflateChecked(blobsDir, hash, stored, size, subject);
  else checkRecordedLength(blobsDir, hash, stored, size, subject);
  return { form: 'compressed', bytes: stored };
}

export type StoredForm = { form: 'raw' } | { form: 'compressed'; bytes: Buffer };

function checkRecordedLength(blobsDir: string, hash: string, stored: Buffer, size: number, subject?: BlobSubject): void {
  let length: number;
  try {
    length = compressedRawLength(stored);
  } catch (error) {
    if (error instanceof BlobUndecodable) throw damaged(blobsDir, hash, 'corrupt', error.why, subject);
    throw error;
  }
  if (length !== size) throw damaged(blobsDir, hash, 'corrupt', `its header records ${length} bytes where ${size} were stored`, subject);
}

/** Reads an open file to its end from `position`, feeding `digest` (and `each` with every piece). */
function digestFrom(fd: number, position: number, digest: Hash, buffer: Buffer, each?: (piece: Buffer) => void): void {
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

/**
 * At most `limit` bytes from the start of a blob, checked: a head that is the whole blob is
 * hashed as it is; a longer blob is hashed to its end once per process and file identity (a
 * 4 GiB video's preview costs one pass, not one per look).
 */
export function readBlobHead(blobsDir: string, hash: string, limit: number, expectedSize?: number, subject?: BlobSubject): Buffer {
  const opened = openBlob(blobsDir, hash, expectedSize, subject);
  if (opened.form === 'compressed') return opened.bytes.length > limit ? Buffer.from(opened.bytes.subarray(0, limit)) : opened.bytes;
  if (opened.form === 'chunked') return chunkedHead(blobsDir, hash, opened, limit, subject);
  const { fd, size } = opened;
  try {
    const head = readFully(fd, Buffer.allocUnsafe(Math.min(limit, size)));
    const identity = fileIdentity(fd);
    if (checkedWhole.get(`${blobsDir}/${hash}`) !== identity) {
      const digest = createHash('sha256').update(head);
      digestFrom(fd, head.length, digest, hashPiece());
      if (digest.digest('hex') !== hash) throw damaged(blobsDir, hash, 'corrupt', undefined, subject);
      if (size > limit) remember(`${blobsDir}/${hash}`, identity);
    }
    return head;
  } finally {
    closeSync(fd);
  }
}

/** The head of a chunked blob: every chunk read and checked once per list file (as a raw blob's rest is hashed once). */
function chunkedHead(blobsDir: string, hash: string, opened: { chunks: ChunkRef[]; identity: string }, limit: number, subject?: BlobSubject): Buffer {
  const key = `${blobsDir}/${hash}`;
  const whole = checkedWhole.get(key) !== opened.identity;
  const parts: Buffer[] = [];
  let length = 0;
  const chunks = whole ? opened.chunks : headChunks(opened.chunks, limit);
  const pieces = whole ? chunkedPieces(blobsDir, hash, chunks, subject) : chunks.map((chunk) => chunkBytes(blobsDir, hash, chunk, subject));
  for (const piece of pieces) {
    if (length >= limit) continue; // read on only to check the whole blob
    const part = piece.subarray(0, limit - length);
    parts.push(part);
    length += part.length;
  }
  if (whole) remember(key, opened.identity);
  return Buffer.concat(parts);
}

/** The chunks a head of `limit` bytes needs. */
function headChunks(chunks: readonly ChunkRef[], limit: number): ChunkRef[] {
  const needed: ChunkRef[] = [];
  let covered = 0;
  for (const chunk of chunks) {
    if (covered >= limit) break;
    needed.push(chunk);
    covered += chunk.size;
  }
  return needed;
}

// The piece a head read hashes the rest of its blob through, kept: a head that is the whole blob
// (most of them) reads nothing into it, and a 1 MiB buffer allocated per read cost more than the read itself.
// Reads are synchronous, so one buffer serves every one.
let rest: Buffer | undefined;
function hashPiece(): Buffer {
  return (rest ??= Buffer.allocUnsafe(PIECE));
}

/** Reads from the start of an open file into `buffer` until it is full or the file ends; answers the part filled. */
function readFully(fd: number, buffer: Buffer): Buffer {
  let filled = 0;
  while (filled < buffer.length) {
    const n = readSync(fd, buffer, filled, buffer.length - filled, filled);
    if (n === 0) break;
    filled += n;
  }
  return buffer.subarray(0, filled);
}

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
export function readBlobWhole(blobsDir: string, hash: string, expectedSize: number, scratch: ReadScratch, subject?: BlobSubject): Buffer {
  if (expectedSize <= COMPRESS_FROM) return readSmallRaw(blobsDir, hash, expectedSize, scratch, subject);
  const opened = openBlob(blobsDir, hash, expectedSize, subject);
  if (opened.form === 'compressed') return opened.bytes;
  if (opened.form === 'chunked') {
    if (scratch.buffer.length < expectedSize) scratch.buffer = Buffer.allocUnsafe(Math.max(expectedSize, scratch.buffer.length * 2));
    let at = 0;
    for (const piece of chunkedPieces(blobsDir, hash, opened.chunks, subject)) at += piece.copy(scratch.buffer, at);
    return scratch.buffer.subarray(0, at);
  }
  const { fd, size } = opened;
  try {
    if (scratch.buffer.length < size) scratch.buffer = Buffer.allocUnsafe(Math.max(size, scratch.buffer.length * 2));
    const bytes = readFully(fd, scratch.buffer.subarray(0, size));
    // Its length was checked when it was opened (a blob is written once and renamed into place).
    if (createHash('sha256').update(bytes).digest('hex') !== hash) throw damaged(blobsDir, hash, 'corrupt', undefined, subject);
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
function readSmallRaw(blobsDir: string, hash: string, expectedSize: number, scratch: ReadScratch, subject?: BlobSubject): Buffer {
  const fd = openRawBlob(blobsDir, hash);
  if (fd === undefined) throw damaged(blobsDir, hash, 'missing', undefined, subject);
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
      throw damaged(blobsDir, hash, 'corrupt', `${size} bytes where ${expectedSize} were stored`, subject);
    }
    const bytes = scratch.buffer.subarray(0, filled);
    if (createHash('sha256').update(bytes).digest('hex') !== hash) throw damaged(blobsDir, hash, 'corrupt', undefined, subject);
    return bytes;
  } finally {
    closeSync(fd);
  }
}

// Blobs longer than a head that were hashed whole, by file identity: a blob is written once and
// renamed into place, so a new inode, size or change time means it must be checked again.
const checkedWhole = new Map<string, string>();
const CHECKED_WHOLE_LIMIT = 4096;

function fileIdentity(fd: number): string {
  const st = fstatSync(fd, { bigint: true });
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}

function remember(key: string, identity: string): void {
  checkedWhole.delete(key);
  checkedWhole.set(key, identity);
  if (checkedWhole.size > CHECKED_WHOLE_LIMIT) checkedWhole.delete(checkedWhole.keys().next().value!);
}

/**
 * A blob's bytes as a stream, checked against its hash: opened now (a missing blob throws here,
 * not mid-stream); the last piece is held until the hash matched, and a mismatch ends the stream
 * with BLOB_CORRUPT instead.
 */
export function blobStream(blobsDir: string, hash: string, expectedSize?: number, subject?: BlobSubject): Readable {
  const opened = openBlob(blobsDir, hash, expectedSize, subject);
  if (opened.form === 'compressed') return Readable.from([opened.bytes], { objectMode: false });
  if (opened.form === 'chunked') return Readable.from(chunkedPieces(blobsDir, hash, opened.chunks, subject), { objectMode: false });
  const source = createReadStream('', { fd: opened.fd, highWaterMark: PIECE });
  return Readable.from(checkedPieces(source, blobsDir, hash, subject), { objectMode: false });
}

async function* checkedPieces(source: ReadStream, blobsDir: string, hash: string, subject?: BlobSubject): AsyncGenerator<Buffer> {
  const digest = createHash('sha256');
  let held: Buffer | undefined;
  for await (const chunk of source) {
    digest.update(chunk as Buffer);
    if (held) yield held;
    held = chunk as Buffer;
  }
  if (digest.digest('hex') !== hash) throw damaged(blobsDir, hash, 'corrupt', undefined, subject);
  if (held) yield held;
}

/**
 * Copies a whole blob into an open file through `buffer`, hashing what it copies; returns the
 * bytes copied. A mismatch throws BLOB_CORRUPT after the copy: the caller drops the file.
 */
export function copyBlobInto(blobsDir: string, hash: string, out: number, buffer: Buffer, expectedSize?: number, subject?: BlobSubject): number {
  const opened = openBlob(blobsDir, hash, expectedSize, subject);
  if (opened.form === 'compressed') {
    writeAll(out, opened.bytes);
    return opened.bytes.length;
  }
  if (opened.form === 'chunked') {
    // A chunk at a time: a file of any length is restored holding at most two chunks in memory.
    let written = 0;
    for (const piece of chunkedPieces(blobsDir, hash, opened.chunks, subject)) {
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
  if (digest.digest('hex') !== hash) throw damaged(blobsDir, hash, 'corrupt', undefined, subject);
  return copied;
}

/**
 * A blob's bytes in fresh buffers of at most `chunk` bytes, hashed as they are read: after the
 * last one, bytes that do not match the blob's name throw BLOB_CORRUPT (an export stops there,
 * so a damaged blob never goes out as good).
 */
export function* checkedBlobChunks(blobsDir: string, hash: string, size: number, chunk: number, subject?: BlobSubject): Generator<Buffer> {
  const opened = openBlob(blobsDir, hash, size, subject);
  if (opened.form === 'compressed') {
    for (let at = 0; at < opened.bytes.length; at += chunk) yield opened.bytes.subarray(at, at + chunk);
    return;
  }
  if (opened.form === 'chunked') {
    for (const piece of chunkedPieces(blobsDir, hash, opened.chunks, subject)) {
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
      if (n === 0) throw damaged(blobsDir, hash, 'corrupt', 'it ended early', subject);
      digest.update(buffer.subarray(0, n));
      left -= n;
      yield n === buffer.length ? buffer : buffer.subarray(0, n);
    }
  } finally {
    closeSync(source);
  }
  if (digest.digest('hex') !== hash) throw damaged(blobsDir, hash, 'corrupt', undefined, subject);
}

/**
 * Copies a blob to a new file at `target` (which must not exist): a clone where the file system
 * can make one. The copy is then hashed (a clone shares the damaged extents of a damaged blob);
 * a mismatch throws BLOB_CORRUPT and the caller drops the file.
 */
export function cloneBlobTo(blobsDir: string, hash: string, target: FsPath, expectedSize?: number, subject?: BlobSubject): void {
  const opened = openBlob(blobsDir, hash, expectedSize, subject);
  if (opened.form === 'compressed') {
    // The bytes inflated are checked already; a new file the mode a clone of a blob would have.
    writeFileSync(target, opened.bytes, { flag: 'wx', mode: PRIVATE_FILE_MODE });
    return;
  }
  if (opened.form === 'chunked') {
    const out = openSync(target, 'wx', PRIVATE_FILE_MODE);
    try {
      for (const piece of chunkedPieces(blobsDir, hash, opened.chunks, subject)) writeAll(out, piece);
    } finally {
      closeSync(out);
    }
    return;
  }
  closeSync(opened.fd);
  try {
    // FICLONE (not FORCE): a clone where the file system can, a plain copy where it cannot.
    copyFileSync(blobPath(blobsDir, hash), target, constants.COPYFILE_FICLONE | constants.COPYFILE_EXCL);
  } catch (error) {
    // Removed between the check and the copy: still the one error for a missing blob.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && (error as NodeJS.ErrnoException).path === blobPath(blobsDir, hash)) {
      throw damaged(blobsDir, hash, 'missing', undefined, subject);
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
  if (digest.digest('hex') !== hash) throw damaged(blobsDir, hash, 'corrupt', undefined, subject);
}

/**
 * Hashes a stored blob's raw bytes as they are on disk now; undefined when it is missing. A
 * compressed blob that does not inflate to its recorded length answers no hash at all (''): it
 * matches no name.
 */
export async function hashBlob(blobsDir: string, hash: string): Promise<string | undefined> {
  const chunked = hashChunked(blobsDir, hash);
  if (chunked !== null) return chunked;
  let stored: Buffer | undefined;
  try {
    stored = readCompressedFile(blobsDir, hash);
    if (stored !== undefined) return createHash('sha256').update(decompressBlob(stored)).digest('hex');
  } catch (error) {
    if (error instanceof BlobUndecodable || (isHindsightError(error) && error.code === 'BLOB_CORRUPT')) return '';
    throw error;
  }
  let stream: ReadStream;
  try {
    stream = createReadStream(blobPath(blobsDir, hash), { highWaterMark: PIECE });
    await new Promise<void>((resolve, reject) => stream.once('open', () => resolve()).once('error', reject));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw fsError('read the stored contents', blobPath(blobsDir, hash), error);
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
function hashChunked(blobsDir: string, hash: string): string | undefined | null {
  try {
    const opened = openChunkList(blobsDir, hash);
    if (opened?.form !== 'chunked') return null;
    const digest = createHash('sha256');
    for (const chunk of opened.chunks) digest.update(chunkBytes(blobsDir, hash, chunk));
    return digest.digest('hex');
  } catch (error) {
    if (isHindsightError(error) && error.code === 'BLOB_MISSING') return undefined;
    if (isHindsightError(error) && error.code === 'BLOB_CORRUPT') return '';
    throw error;
  }
}
