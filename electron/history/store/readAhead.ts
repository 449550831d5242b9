import { ReadAheadPool } from './readAheadPool.js';
import type { BlobStore } from './blobStore.js';

// Reads the small blobs of a long list (an export's, a snapshot written into a new folder) on worker
// threads, a bounded distance ahead of the one being written, each checked against its hash on
// the thread that reads it (readAheadPool.ts with readWorker.ts); for an export, a blob kept
// compressed is read as it is kept instead (keepCompressed). On a cold page cache a small file's read is
// a wait for the disk (about 90 µs each here, whatever the order); reads waiting on two threads
// overlap, and the one thread writing the output waits for a read far less often. Measured on
// 50,005 small blobs, cold: an export 6.6-7.3 s with no thread, 5.4-5.6 s with two and 5.3-5.9 s
// with four; a snapshot written into a new folder 6.2-6.7 s with one, 5.6-6.5 s with two or four.
// Each thread costs about 30 MiB (its own heap) and the window of bytes read ahead its size: two
// threads and 8 MiB keep the gain for about 60 MiB (four threads and 32 MiB cost about 200 MiB).
// A short list gains nothing and pays the threads' start: under BLOBS_PER_THREAD small blobs the
// reader reads inline, as before (seed-4005's 4,004 blobs measured slower with threads).

/** Blobs at most this long are read ahead; longer ones are streamed by the caller as before. */
export const SMALL_BLOB = 1024 * 1024;
/** One more thread per this many small blobs, up to READ_THREADS. */
export const BLOBS_PER_THREAD = 10_000;
const READ_THREADS = 2;
/** Raw bytes read ahead of the writer at most: some thousands of small files, far more than the threads can keep in flight. */
const AHEAD_BYTES = 8 * 1024 * 1024;

export interface AheadBlob {
  hash: string;
  size: number;
  /** A file whose version holds it, named in the error when it is damaged. */
  path?: string;
}

export interface ReadAheadOptions {
  /** Small blobs per thread (default BLOBS_PER_THREAD); a test lowers it to take the threaded path on a small list. */
  blobsPerThread?: number;
  /**
   * A blob kept compressed is read as it is kept, its header checked, neither inflated nor hashed
   * (an export: its importer checks it); take it with takeKept.
   */
  keepCompressed?: boolean;
}

/** A blob read ahead: its compressed form as the store keeps it, or its checked raw bytes. */
export type AheadForm = { form: 'compressed' | 'raw'; bytes: Buffer };

export class ReadAhead {
  readonly #workers: ReadAheadPool<'raw' | 'zstd'>;
  readonly #listed = new Set<string>();

  private constructor(store: BlobStore, blobs: AheadBlob[], threads: number, keepCompressed: boolean) {
    // Counted under push.* as the push's pool is: one set of counters for the threads that read blobs ahead.
    this.#workers = new ReadAheadPool(store, {
      script: 'readWorker',
      trace: 'push',
      threads,
      aheadBytes: AHEAD_BYTES,
      ...(keepCompressed ? { carry: 'header' as const } : {}),
    });
    for (const blob of blobs) this.#listed.add(blob.hash);
    this.#workers.expect(blobs.map((b) => ({ hash: b.hash, size: b.size, path: b.path ?? '' })));
  }

  /**
   * A read-ahead over the small, non-empty blobs of `blobs` (in the order they will be taken), or
   * undefined when the list is too short to gain from threads.
   */
  static over(store: BlobStore, blobs: Iterable<AheadBlob>, options: ReadAheadOptions = {}): ReadAhead | undefined {
    const small: AheadBlob[] = [];
    for (const blob of blobs) if (readsAhead(blob.size)) small.push(blob);
    const threads = Math.min(READ_THREADS, Math.floor(small.length / (options.blobsPerThread ?? BLOBS_PER_THREAD)));
    return threads > 0 ? new ReadAhead(store, small, threads, options.keepCompressed === true) : undefined;
  }

  /**
   * The checked bytes of a listed blob (BLOB_MISSING / BLOB_CORRUPT otherwise, noted as damage
   * like any reader's); undefined for a blob the list did not name (a large one): the caller reads
   * it itself. A blob listed twice is read again for its second taker.
   */
  take(blob: AheadBlob): Promise<Buffer> | undefined {
    return this.takeKept(blob)?.then((read) => read.bytes);
  }

  /** As take, with the form the bytes are in: compressed as kept only where the read-ahead keeps compressed forms. */
  takeKept(blob: AheadBlob): Promise<AheadForm> | undefined {
    if (!this.#listed.has(blob.hash)) return undefined;
    return this.#workers
      .take({ hash: blob.hash, size: blob.size, path: blob.path ?? '' })
      .then((stored) => ({ form: stored.encoding === 'zstd' ? 'compressed' : 'raw', bytes: stored.bytes }));
  }

  /** Stops the threads; bytes read ahead and not taken are dropped. */
  close(): Promise<void> {
    return this.#workers.close();
  }
}

function readsAhead(size: number): boolean {
  return size > 0 && size <= SMALL_BLOB;
}
