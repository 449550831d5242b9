import { closeSync, constants, copyFileSync, fchmodSync, fstatSync, openSync, readSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { PRIVATE_FILE_MODE } from '../privateModes.js';
import { unreadableReason } from '../walk/unreadable.js';
import { stampOf, type StatStamp } from '../statStamp.js';
import { SMALL_FILE_LIMIT } from './storeLayout.js';
import { CHUNK_FROM, type ChunkRef } from './chunkList.js';
import { fileInChunks } from './fileInChunks.js';
import { dropTemp, newTempPath, type PlaceStats } from './placeBlob.js';
import { isStored, placeBlobFile } from './blobFiles.js';
import { storeBytes } from './storeBytes.js';
import { count } from '../trace.js';
import type { FsPath } from '../paths/fsPath.js';

// Filing one file's bytes into the blob store with synchronous calls. It runs on the copy
// workers (worker threads), where a synchronous call costs a few microseconds against tens for a
// promise round trip, and it never blocks the history process's event loop there.
//
// Files up to CHUNK_FROM (1 MiB): open, read once, close; then storeBytes.ts (hash, compressed
// when that pays, a temp beside the blob made 0600, renamed within its folder).
// Larger files: filed as content-defined chunks (fileInChunks.ts: read in pieces, each chunk
// stored compressed when that pays, a list under the whole file's hash); with cloneMode 'clone',
// cloned into the temp where the file system can (see CloneMode for why that is not the default). The bytes hashed are
// always the bytes filed. Large files are never held whole in memory.
//
// A blob already at its final path is trusted (the bytes are not written twice) unless its hash
// is in `rewrite`: blobs found missing or damaged, whose right bytes are renamed over them.
// Given `known` (the hashes the index names, neither damaged nor marked for collection), whether a
// blob is stored is answered from that set, with no system call: a new file costs no failing
// access on its blob path. A blob filed is added to it. A hash missing from the set is written
// (renamed over the same bytes if another thread filed them meanwhile: harmless).

/**
 * How a large file is filed. auto (and never): in content-defined chunks, on every file system:
 * measured against reflink clones on XFS, chunks cost 31 KiB per version of a 20 MiB log where a
 * clone costs 20 MiB once the file is rewritten (a new file renamed over it, as most tools write),
 * and 30 KiB against 12 KiB when it is appended in place (docs/PERFORMANCE.md, "Clone or chunks").
 * clone: a reflink clone where the file system can make one (HINDSIGHT_CLONE=clone), else chunks.
 */
export type CloneMode = 'auto' | 'never' | 'clone';

export interface FileOptions {
  cloneMode: CloneMode;
  smallLimit?: number;
  /** Hashes whose blob must be written even though a file of that name exists (found damaged). */
  rewrite?: ReadonlySet<string>;
  /** Asked between pieces of a large file: true stops the copy (its temp is dropped). */
  cancelled?: () => boolean;
  /** Hashes stored already, answered without a look at the disk; the blobs filed are added. */
  known?: Set<string>;
  /** The umask leaves a file created 0600 at 0600 (privateModes.createsPrivateFileExactly): no fchmod needed. */
  exactCreateMode?: boolean;
}

/** A copy stopped because its operation was cancelled; nothing of it is kept. */
export class CopyCancelled extends Error {
  constructor() {
    super('Cancelled.');
    this.name = 'CopyCancelled';
  }
}

/** The stamp is the worker's own fstat of the bytes it filed. */
export interface FiledFile extends StatStamp {
  kind: 'filed';
  hash: string;
  /** This call placed the blob (false: the same bytes were already stored). */
  created: boolean;
  /** The blob placed replaced one found missing or damaged. */
  repaired: boolean;
  /** The placed file's bytes on disk (a chunked file's: its list and the chunks it placed); undefined when nothing was placed. */
  stored?: number;
  /** small: read once into the reused buffer (at most smallLimit); whole: read once, up to CHUNK_FROM; clone; chunked: fileInChunks.ts. */
  method: 'small' | 'whole' | 'clone' | 'chunked';
  /** The chunks of a blob filed in chunks, in order (the index records which chunks a list needs). */
  chunks?: ChunkRef[];
}

/** The path no longer holds a regular file: it vanished or became something else. */
export interface SkippedFile {
  kind: 'vanished' | 'not-a-file';
}

/** The file is there but could not be read (no permission, a read error); the reason in words. */
export interface UnreadableFile {
  kind: 'unreadable';
  reason: string;
}

export type FileOutcome = FiledFile | SkippedFile | UnreadableFile;

/** A failure reading the source file (not writing the store): that one file is unreadable. */
class SourceReadError extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

export interface FileCounters extends PlaceStats {
  cloneFallbacks: number;
}

const PIECE = 1024 * 1024;
const CLONE_UNSUPPORTED = new Set(['ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'EINVAL', 'ENOSYS', 'EPERM']);
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
// A path the walk saw as a file may be a FIFO by now: opening one for reading without O_NONBLOCK
// waits for a writer forever. Non-blocking, the open returns at once and the fstat below tells
// what it is; on a regular file the flag changes nothing.
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
// Opening these answers that the path is no regular file any more (a socket: ENXIO).
const NOT_A_FILE = new Set(['ELOOP', 'ENXIO', 'ENODEV']);

export function fileRegularFile(
  absPath: FsPath,
  blobsDir: string,
  options: FileOptions,
  counters: FileCounters = { mkdirs: 0, cloneFallbacks: 0 },
): FileOutcome {
  let fd: number;
  try {
    fd = openSync(absPath, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'vanished' };
    if (code !== undefined && NOT_A_FILE.has(code)) return { kind: 'not-a-file' };
    const reason = unreadableReason(error, 'file');
    if (reason !== undefined) return { kind: 'unreadable', reason };
    throw error;
  }
  let fdOpen = true;
  try {
    const st = fstatSync(fd, { bigint: true });
    if (!st.isFile()) return { kind: 'not-a-file' };
    const stamp = stampOf(st);
    const small = stamp.size <= (options.smallLimit ?? SMALL_FILE_LIMIT);
    if (small || stamp.size <= CHUNK_FROM) {
      const bytes = readAll(fd, stamp.size);
      closeSync(fd);
      fdOpen = false;
      const { hash, created, repaired, stored } = storeBytes(bytes, blobsDir, counters, options.exactCreateMode, options.rewrite, options.known);
      // The size filed is the bytes read: a file that grew since its fstat is filed whole.
      return { kind: 'filed', ...stamp, hash, size: bytes.length, created, repaired, stored, method: small ? 'small' : 'whole' };
    }
    const large = fileLarge(absPath, fd, blobsDir, options, counters);
    return { kind: 'filed', ...stamp, ...large };
  } catch (error) {
    if (error instanceof SourceReadError) return { kind: 'unreadable', reason: error.reason };
    throw error;
  } finally {
    if (fdOpen) closeSync(fd);
  }
}

function fileLarge(
  absPath: FsPath,
  srcFd: number,
  blobsDir: string,
  options: FileOptions,
  counters: FileCounters,
): { hash: string; size: number; created: boolean; repaired: boolean; stored?: number; method: 'clone' | 'chunked'; chunks?: ChunkRef[] } {
  const cancelled = options.cancelled ?? (() => false);
  const temp = newTempPath(blobsDir);
  if (options.cloneMode !== 'clone' || !tryClone(absPath, temp, counters)) {
    const filed = fileInChunks(
      (buffer) => readSource(srcFd, buffer, 0, buffer.length),
      blobsDir,
      { ...options, cancelled },
      counters,
      () => new CopyCancelled(),
    );
    return { ...filed, method: 'chunked' };
  }
  try {
    const method = 'clone';
    const digest = hashAndSetMode(temp, cancelled);
    const repaired = options.rewrite?.has(digest.hash) ?? false;
    if (!repaired && isStored(blobsDir, digest.hash, options.known)) {
      dropTemp(temp);
      return { ...digest, created: false, repaired, method };
    }
    // A clone stays raw: it shares its extents with the file until the file changes.
    placeBlobFile(temp, blobsDir, digest.hash, 'raw', counters, repaired);
    options.known?.add(digest.hash);
    return { ...digest, created: true, repaired, stored: digest.size, method };
  } catch (error) {
    dropTemp(temp);
    throw error;
  }
}

function tryClone(src: FsPath, temp: string, counters: FileCounters): boolean {
  try {
    copyFileSync(src, temp, constants.COPYFILE_FICLONE_FORCE | constants.COPYFILE_EXCL);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (!CLONE_UNSUPPORTED.has(code)) throw error;
    counters.cloneFallbacks++;
    dropTemp(temp);
    return false;
  }
}

/** Hashes what the clone actually holds (the bytes filed are the bytes hashed) and makes it 0600 (a clone has its source's mode). */
function hashAndSetMode(temp: string, cancelled: () => boolean): { hash: string; size: number } {
  const fd = openSync(temp, 'r+');
  try {
    const hash = createHash('sha256');
    const buffer = Buffer.allocUnsafe(PIECE);
    let size = 0;
    for (;;) {
      if (cancelled()) throw new CopyCancelled();
      const n = readSync(fd, buffer, 0, PIECE, null);
      if (n === 0) break;
      hash.update(buffer.subarray(0, n));
      size += n;
    }
    fchmodSync(fd, PRIVATE_FILE_MODE);
    return { hash: hash.digest('hex'), size };
  } finally {
    closeSync(fd);
  }
}

// Files read whole (up to CHUNK_FROM) are read into one buffer per thread, reused: storeBytes
// hashes and writes the bytes before it returns and keeps no reference, so nothing outlives the
// next read. It starts at SMALL_FILE_LIMIT and grows (doubling, to CHUNK_FROM at most) for the
// longer ones: a buffer per file of up to 1 MiB was garbage V8 collects only once 64 MiB more of
// it is outside its heap, per worker. A file that grew past it gets a buffer of its own. Trace
// counter `store.readBuffersMade`.
let scratch: Buffer | undefined;

function scratchFor(length: number): Buffer {
  if (scratch && length <= scratch.length) return scratch;
  if (length > CHUNK_FROM + 1) return Buffer.allocUnsafe(length);
  count('store.readBuffersMade');
  let size = Math.max(SMALL_FILE_LIMIT + 1, scratch?.length ?? 0);
  while (size < length) size = Math.min(CHUNK_FROM + 1, size * 2);
  scratch = Buffer.allocUnsafe(size);
  return scratch;
}

/** Reads to end of file: a file that grew since its stat is read whole, never cut at the old size. */
function readAll(fd: number, expected: number): Buffer {
  let buffer = scratchFor(expected + 1);
  let size = 0;
  for (;;) {
    if (size === buffer.length) {
      const bigger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(bigger, 0, 0, size);
      buffer = bigger;
    }
    const wanted = buffer.length - size;
    const n = readSource(fd, buffer, size, wanted);
    size += n;
    // A regular file answers short only at its end: no second read just to be told so.
    if (n < wanted) break;
  }
  return buffer.subarray(0, size);
}

/** A read of the file being filed: its failure is that file's (SourceReadError), not the store's. */
function readSource(fd: number, buffer: Buffer, offset: number, length: number): number {
  try {
    return readSync(fd, buffer, offset, length, null);
  } catch (error) {
    const reason = unreadableReason(error, 'file');
    throw reason === undefined ? error : new SourceReadError(reason);
  }
}
