import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { HindsightError, type ErrorCode } from '../../../../shared/errors.js';
import { noteBlobDamage } from '../../store/blobReader.js';
import { count, countMax } from '../../trace.js';
import { workerScript } from '../../workerScripts.js';
import type { StoredBlob } from '../layout/packFormat.js';
import type { CarryCompressed, FromPackWorker, PackRequest, PackWorkerData } from './packProtocol.js';
import type { PendingBlob } from './sendData.js';

// The push's side of its pack workers (packWorker.ts): the small blobs a push expects to pack are
// read, hashed and compressed on up to two worker threads, in batches, a bounded distance ahead
// of the pack being assembled; the push takes each blob's stored form in its own order. Packs
// stay exactly what one thread would make (the stored form of a blob does not depend on where it
// was made, and the packs are cut here, in order), so a resumed push still finds its packs by name.
// The list can be given before the push knows what the remote lacks (speculation while the S3
// client loads and the heads are listed) and narrowed afterwards: what is no longer wanted is dropped.
// Counts each batch received as `push.workerBatches` and its blobs as `push.workerBlobs`, and the
// most raw bytes ever read ahead as `push.bytesAhead`.

/** Raw bytes read ahead of the pack being assembled, at most (besides one batch per worker). */
const AHEAD_BYTES = 32 * 1024 * 1024;
/** A batch: enough blobs to make a message worth its cost, few enough to spread over the workers. */
const BATCH_BYTES = 512 * 1024;
const BATCH_BLOBS = 256;

interface Wanted {
  size: number;
  stored: Promise<StoredBlob>;
}

interface Batch {
  blobs: PendingBlob[];
  settle: { resolve: (form: StoredBlob) => void; reject: (error: unknown) => void }[];
}

interface PackThread {
  worker: Worker;
  batches: Map<number, Batch>;
}

export interface PackWorkersOptions {
  /** The app's background push: the workers run at the lowest priority. */
  lowPriority?: boolean;
  /** Worker threads (default: two, or one on a single core). */
  threads?: number;
  /** Hand out each blob's checked bytes as they are (encoding raw), not its stored form. */
  raw?: boolean;
  /** A blob the store keeps compressed is handed out as it is kept (packProtocol.ts). Default: checked, unless raw. */
  carry?: CarryCompressed;
  /** Bytes read ahead at most (default AHEAD_BYTES). */
  aheadBytes?: number;
}

export class PackWorkers {
  readonly #blobsDir: string;
  readonly #threadCount: number;
  readonly #lowPriority: boolean;
  readonly #raw: boolean;
  readonly #carry: CarryCompressed | undefined;
  readonly #aheadBytes: number;
  readonly #threads: PackThread[] = [];
  readonly #wanted = new Map<string, Wanted>();
  #order: PendingBlob[] = [];
  #next = 0;
  #ahead = 0;
  #ids = 0;
  #closed = false;

  constructor(blobsDir: string, options: PackWorkersOptions = {}) {
    this.#blobsDir = blobsDir;
    this.#threadCount = Math.max(1, options.threads ?? Math.min(2, availableParallelism()));
    this.#lowPriority = options.lowPriority === true;
    this.#raw = options.raw === true;
    // A push sends a compressed blob as it is kept, checked first; raw bytes are asked for only when given no carry.
    this.#carry = options.carry ?? (this.#raw ? undefined : 'checked');
    this.#aheadBytes = options.aheadBytes ?? AHEAD_BYTES;
  }

  /**
   * The small blobs the push will take, in the order it takes them. Replaces an earlier list:
   * blobs already read that the new one does not name are dropped.
   */
  expect(blobs: PendingBlob[]): void {
    const names = new Set(blobs.map((b) => b.hash));
    for (const [hash, wanted] of this.#wanted) {
      if (names.has(hash)) continue;
      this.#wanted.delete(hash);
      this.#ahead -= wanted.size;
    }
    this.#order = blobs;
    this.#next = 0;
    this.#submit();
  }

  /** A blob's stored form, its bytes checked against its hash (BLOB_MISSING / BLOB_CORRUPT otherwise). */
  take(blob: PendingBlob): Promise<StoredBlob> {
    let wanted = this.#wanted.get(blob.hash);
    if (!wanted) {
      // Not in the list given: read it now, alone.
      this.#send([blob]);
      wanted = this.#wanted.get(blob.hash)!;
    }
    this.#wanted.delete(blob.hash);
    this.#ahead -= wanted.size;
    this.#submit();
    return wanted.stored;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#wanted.clear();
    await Promise.all(this.#threads.map((t) => t.worker.terminate()));
  }

  /** Sends batches until the read-ahead is full or the list is done. */
  #submit(): void {
    while (!this.#closed && this.#next < this.#order.length && this.#ahead < this.#aheadBytes) {
      const batch: PendingBlob[] = [];
      const named = new Set<string>();
      let bytes = 0;
      while (this.#next < this.#order.length && batch.length < BATCH_BLOBS && bytes < BATCH_BYTES) {
        const blob = this.#order[this.#next++]!;
        if (this.#wanted.has(blob.hash) || named.has(blob.hash)) continue;
        named.add(blob.hash);
        batch.push(blob);
        bytes += blob.size;
      }
      if (batch.length > 0) this.#send(batch);
    }
  }

  #send(blobs: PendingBlob[]): void {
    const batch: Batch = { blobs, settle: [] };
    for (const blob of blobs) {
      const stored = new Promise<StoredBlob>((resolve, reject) => batch.settle.push({ resolve, reject }));
      // A blob dropped from the list may fail unseen; whoever takes it sees its error.
      stored.catch(() => undefined);
      this.#wanted.set(blob.hash, { size: blob.size, stored });
      this.#ahead += blob.size;
    }
    countMax('push.bytesAhead', this.#ahead);
    const thread = this.#idlest();
    const id = ++this.#ids;
    thread.batches.set(id, batch);
    const request: PackRequest = { type: 'pack', id, blobsDir: this.#blobsDir, blobs: blobs.map((b) => [b.hash, b.size, b.path]), raw: this.#raw, carry: this.#carry };
    thread.worker.postMessage(request);
  }

  /** The thread with the fewest batches waiting (started when fewer than the count run). */
  #idlest(): PackThread {
    const idle = this.#threads.find((t) => t.batches.size === 0);
    if (idle) return idle;
    if (this.#threads.length < this.#threadCount) return this.#start();
    return this.#threads.reduce((a, b) => (b.batches.size < a.batches.size ? b : a));
  }

  #start(): PackThread {
    const data: PackWorkerData = { lowPriority: this.#lowPriority };
    const thread: PackThread = { worker: new Worker(workerScript('packWorker'), { workerData: data }), batches: new Map() };
    thread.worker.on('message', (message: FromPackWorker) => this.#received(thread, message));
    thread.worker.on('error', (error) => this.#fail(thread, error));
    thread.worker.on('exit', (code) => this.#fail(thread, new Error(`A pack worker stopped (exit code ${code}).`)));
    this.#threads.push(thread);
    return thread;
  }

  #received(thread: PackThread, message: FromPackWorker): void {
    if (message.type === 'ready') {
      if (message.niceness === 19) count('push.lowPriorityWorkers');
      return;
    }
    const batch = thread.batches.get(message.id);
    if (!batch) return;
    thread.batches.delete(message.id);
    for (const [name, by] of Object.entries(message.counts)) count(name, by);
    count('push.workerBatches');
    count('push.workerBlobs', message.stored.length);
    const body = Buffer.from(message.body);
    let at = 0;
    for (const [i, [length, encoding]] of message.stored.entries()) {
      batch.settle[i]!.resolve({ bytes: body.subarray(at, at + length), encoding });
      at += length;
    }
    if (message.failed) {
      const { code, details } = message.failed;
      const error = code ? new HindsightError(code as ErrorCode, message.failed.message, details) : new Error(message.failed.message);
      const hash = details?.hash;
      if ((code === 'BLOB_MISSING' || code === 'BLOB_CORRUPT') && typeof hash === 'string') noteBlobDamage(this.#blobsDir, hash, code === 'BLOB_MISSING' ? 'missing' : 'corrupt');
      for (const { reject } of batch.settle.slice(message.stored.length)) reject(error);
    }
  }

  #fail(thread: PackThread, error: Error): void {
    for (const batch of thread.batches.values()) for (const { reject } of batch.settle) reject(error);
    thread.batches.clear();
    const at = this.#threads.indexOf(thread);
    if (at >= 0) this.#threads.splice(at, 1);
  }
}
