import { availableParallelism } from 'node:os';
import { LOWEST_PRIORITY } from '../threadPriority.js';
import { count, countMax } from '../trace.js';
import { errorOfFailure } from '../workerFailure.js';
import { WorkerHost } from '../workerHost.js';
import { workerScript, type WorkerName } from '../workerScripts.js';
import type { BlobForm, CarryCompressed, ReadBatch, ReadRequest } from './readAheadProtocol.js';
import type { BlobStore } from './blobStore.js';

// Reads a long list of small blobs on worker threads, in batches, a bounded distance ahead of the
// one being taken; the caller takes each blob's form in its own order. Which form the threads make
// is their script's: raw checked bytes (readWorker.ts, for readAhead.ts) or the push's stored
// forms (remote/push/packWorker.ts). A form does not depend on the thread that made it, so what
// the caller builds from them is what one thread would build.
// The list can be given before the caller knows all it will take (a push speculates while the S3
// client loads and the heads are listed) and narrowed afterwards: what is no longer wanted is dropped.
// Counts, under the pool's trace name, each batch received as `<trace>.workerBatches` and its
// blobs as `<trace>.workerBlobs`, the most bytes ever read ahead as `<trace>.bytesAhead`, and each
// thread at the lowest priority as `<trace>.lowPriorityWorkers`.

/** Bytes read ahead of the one being taken, at most, by default (besides one batch per thread). */
const AHEAD_BYTES = 32 * 1024 * 1024;
/** A batch: enough blobs to make a message worth its cost, few enough to spread over the threads. */
const BATCH_BYTES = 512 * 1024;
const BATCH_BLOBS = 256;

export interface PoolBlob {
  hash: string;
  size: number;
  /** A file whose version holds the blob, named when the blob is found damaged ('' when none is). */
  path: string;
}

interface Wanted<Encoding extends string> {
  size: number;
  form: Promise<BlobForm<Encoding>>;
}

interface Settle<Encoding extends string> {
  resolve: (form: BlobForm<Encoding>) => void;
  reject: (error: unknown) => void;
}

type ReadThread<Encoding extends string> = WorkerHost<ReadRequest, ReadBatch<Encoding>>;

export interface ReadAheadPoolOptions {
  /** The threads' script: which form they make. */
  script: WorkerName;
  /** What the trace counters are named under ('push'). */
  trace: string;
  /** Background work: the threads run at the lowest priority. */
  lowPriority?: boolean;
  /** Worker threads (default: two, or one on a single core). */
  threads?: number;
  /** Bytes read ahead at most (default AHEAD_BYTES). */
  aheadBytes?: number;
  /** A blob the store keeps compressed is made into its form as it is kept (readAheadProtocol.ts). */
  carry?: CarryCompressed;
}

export class ReadAheadPool<Encoding extends string> {
  readonly #blobs: BlobStore;
  readonly #options: ReadAheadPoolOptions;
  readonly #threadCount: number;
  readonly #aheadBytes: number;
  readonly #threads: ReadThread<Encoding>[] = [];
  readonly #lowCounted = new Set<ReadThread<Encoding>>();
  readonly #wanted = new Map<string, Wanted<Encoding>>();
  #order: PoolBlob[] = [];
  #next = 0;
  #ahead = 0;
  #closed = false;

  constructor(blobs: BlobStore, options: ReadAheadPoolOptions) {
    this.#blobs = blobs;
    this.#options = options;
    this.#threadCount = Math.max(1, options.threads ?? Math.min(2, availableParallelism()));
    this.#aheadBytes = options.aheadBytes ?? AHEAD_BYTES;
  }

  /**
   * The small blobs the caller will take, in the order it takes them. Replaces an earlier list:
   * blobs already read that the new one does not name are dropped.
   */
  expect(blobs: PoolBlob[]): void {
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

  /** A blob's form, its bytes checked against its hash (BLOB_MISSING / BLOB_CORRUPT otherwise). */
  take(blob: PoolBlob): Promise<BlobForm<Encoding>> {
    let wanted = this.#wanted.get(blob.hash);
    if (!wanted) {
      // Not in the list given: read it now, alone.
      this.#send([blob]);
      wanted = this.#wanted.get(blob.hash)!;
    }
    this.#wanted.delete(blob.hash);
    this.#ahead -= wanted.size;
    this.#submit();
    return wanted.form;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#wanted.clear();
    await Promise.all(this.#threads.map((t) => t.close()));
  }

  /** Sends batches until the read-ahead is full or the list is done. */
  #submit(): void {
    while (!this.#closed && this.#next < this.#order.length && this.#ahead < this.#aheadBytes) {
      const batch: PoolBlob[] = [];
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

  #send(blobs: PoolBlob[]): void {
    const settle: Settle<Encoding>[] = [];
    for (const blob of blobs) {
      const form = new Promise<BlobForm<Encoding>>((resolve, reject) => settle.push({ resolve, reject }));
      // A blob dropped from the list may fail unseen; whoever takes it sees its error.
      form.catch(() => undefined);
      this.#wanted.set(blob.hash, { size: blob.size, form });
      this.#ahead += blob.size;
    }
    countMax(`${this.#options.trace}.bytesAhead`, this.#ahead);
    const thread = this.#idlest();
    const request: ReadRequest = { blobsDir: this.#blobs.dir, blobs: blobs.map((b) => [b.hash, b.size, b.path]), carry: this.#options.carry };
    thread.request(request).then(
      (batch) => this.#received(thread, settle, batch),
      (error: unknown) => this.#failed(thread, settle, error),
    );
  }

  /** The thread with the fewest batches waiting (started when fewer than the count run). */
  #idlest(): ReadThread<Encoding> {
    const idle = this.#threads.find((t) => t.pending === 0);
    if (idle) return idle;
    if (this.#threads.length < this.#threadCount) return this.#start();
    return this.#threads.reduce((a, b) => (b.pending < a.pending ? b : a));
  }

  #start(): ReadThread<Encoding> {
    const { script, lowPriority } = this.#options;
    const thread: ReadThread<Encoding> = new WorkerHost(workerScript(script), { name: 'A read-ahead thread', lowPriority });
    this.#threads.push(thread);
    return thread;
  }

  #received(thread: ReadThread<Encoding>, settle: Settle<Encoding>[], batch: ReadBatch<Encoding>): void {
    const { trace } = this.#options;
    if (thread.niceness === LOWEST_PRIORITY && !this.#lowCounted.has(thread)) {
      this.#lowCounted.add(thread);
      count(`${trace}.lowPriorityWorkers`);
    }
    for (const [name, by] of Object.entries(batch.counts)) count(name, by);
    count(`${trace}.workerBatches`);
    count(`${trace}.workerBlobs`, batch.forms.length);
    const body = Buffer.from(batch.body);
    let at = 0;
    for (const [i, [length, encoding]] of batch.forms.entries()) {
      settle[i]!.resolve({ bytes: body.subarray(at, at + length), encoding });
      at += length;
    }
    if (batch.failed) this.#refused(settle.slice(batch.forms.length), batch.failed);
  }

  /** The rest of a batch after a damaged blob: noted as damage like any reader's, and refused. */
  #refused(rest: Settle<Encoding>[], failed: NonNullable<ReadBatch<Encoding>['failed']>): void {
    const { code, details } = failed;
    const hash = details?.hash;
    if ((code === 'BLOB_MISSING' || code === 'BLOB_CORRUPT') && typeof hash === 'string')
      this.#blobs.noteDamage(hash, code === 'BLOB_MISSING' ? 'missing' : 'corrupt');
    const error = errorOfFailure(failed);
    for (const { reject } of rest) reject(error);
  }

  /** A thread that stopped fails its batches; the next batch starts a new one. */
  #failed(thread: ReadThread<Encoding>, settle: Settle<Encoding>[], error: unknown): void {
    for (const { reject } of settle) reject(error);
    if (!thread.stopped) return;
    const at = this.#threads.indexOf(thread);
    if (at >= 0) this.#threads.splice(at, 1);
  }
}
