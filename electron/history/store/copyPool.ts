import { availableParallelism } from 'node:os';
import { CopySlots } from './copySlots.js';
import type { BlobStore } from './blobStore.js';
import { HindsightError } from '../../../shared/errors.js';
import type { WalkEntry } from '../walk/walkFolder.js';
import type { BackupJob, CopyAnswer, CopyJob, CopyJobResult, CopyRequest, PlaceJob, PlaceResult, WalkEnded, WalkJob } from './copyProtocol.js';
import { count, countMax } from '../trace.js';
import { workerScript as scriptOf } from '../workerScripts.js';
import { DEFAULT_COPY_CONCURRENCY } from './copyConcurrency.js';
import { WorkerHost, type RequestOptions } from '../workerHost.js';

// The copy workers of the process: worker threads that do the file work with synchronous calls,
// leaving the history process's event loop and libuv pool free for everything else. One pool per
// process; every job takes one slot of the shared CopySlots, so the limit holds across every
// project. A job is a short batch of files filed one after another, so files in flight never
// exceed the slots.
//
// Workers are sized to the cores, not to the slots: a worker is a thread that hashes and copies,
// and more of them than cores buys nothing but their boot (each takes tens of milliseconds of CPU
// before its first file). They are started as jobs need them: a folder whose files fit in one
// batch runs on one worker; a job holding a slot while every worker is busy waits for the first
// one free. A worker idle for `idleMs` is ended: a recorder that waits for the next change holds
// no copy thread (each holds its isolate, its heap and its zstd contexts: tens of MiB), and the
// next batch pays one boot. Each worker is a WorkerHost (workerHost.ts) running copyWorker.ts: one
// request and one reply per job, a walk's entries told as progress before its end.

/** How long a copy worker may wait idle before it is ended. */
export const DEFAULT_WORKER_IDLE_MS = 10_000;

/** A copy worker: its requests, its answers, and a walk's entries told before the walk's end. */
type CopyThread = WorkerHost<CopyRequest, CopyAnswer, WalkEntry[]>;

/**
 * A copy worker's young generation: its garbage is each file's buffers and digests, short lived,
 * so a small nursery is collected often and cheaply instead of growing V8's default (up to 48 MiB
 * a worker) while a rescan of thousands of small files runs.
 */
export const COPY_WORKER_LIMITS = { maxYoungGenerationSizeMb: 8 };

export class CopyPool {
  private readonly idle: CopyThread[] = [];
  /** The timer that ends each idle worker. */
  private readonly retireTimers = new Map<CopyThread, NodeJS.Timeout>();
  /** Workers running a job. */
  private readonly busy = new Set<CopyThread>();
  /** Jobs holding a slot while every worker is busy: each gets the next worker free. */
  private readonly waiting: { resolve: (worker: CopyThread) => void; reject: (error: Error) => void }[] = [];
  private workers = 0;
  /** The id of the known-blob list each worker holds (it keeps only its last). */
  private readonly knownHeld = new WeakMap<CopyThread, number>();
  private nextJobId = 1;
  private inFlight = 0;
  private closed = false;
  /**
   * Walks held back by the filing they feed (walk's `onEntries` answered a promise): each may
   * have one worker more than maxWorkers, so the copies keep the workers they had while the
   * walk's own worker waits.
   */
  private heldWalks = 0;

  constructor(
    readonly slots: CopySlots,
    private readonly workerScript: string | URL = scriptOf('copyWorker'),
    /** At most this many worker threads, whatever the slots (default: the cores this process may use). */
    readonly maxWorkers: number = availableParallelism(),
    /** An idle worker is ended after this long. */
    private readonly idleMs: number = DEFAULT_WORKER_IDLE_MS,
  ) {}

  /** Worker threads alive now (busy, idle, or booting). */
  get liveWorkers(): number {
    return this.workers;
  }

  /** Files copying at this moment (one per busy worker). */
  get filesInFlight(): number {
    return this.inFlight;
  }

  /**
   * Runs a job in a free slot; a lower `priority` is served first (see CopySlots). A job whose
   * signal fires before it gets a slot never starts; one already running stops at its next file
   * (or next piece of a large file), its remaining files answered 'cancelled'.
   */
  async run(job: Omit<CopyJob, 'jobId' | 'cancel'>, priority = 0, signal?: AbortSignal): Promise<CopyJobResult> {
    await this.slots.acquire(priority);
    let stopWorker: (() => void) | undefined;
    try {
      signal?.throwIfAborted();
      this.inFlight++;
      countMax('copy.maxInFlight', this.inFlight);
      const cancel = signal ? new Int32Array(new SharedArrayBuffer(4)) : undefined;
      if (signal && cancel) {
        stopWorker = () => Atomics.store(cancel, 0, 1);
        signal.addEventListener('abort', stopWorker, { once: true });
      }
      try {
        return (await this.ask({ ...job, cancel, jobId: this.nextJobId++ })) as CopyJobResult;
      } finally {
        this.inFlight--;
      }
    } finally {
      if (stopWorker) signal?.removeEventListener('abort', stopWorker);
      this.slots.release();
    }
  }

  /**
   * Checks and places a batch of blobs on a worker (store/checkAndPlace.ts): an import's records,
   * whose bytes are transferred to the worker, not copied. Takes a slot like a copy batch.
   */
  async place(blobs: BlobStore, job: Omit<PlaceJob, 'kind' | 'jobId' | 'blobsDir'>): Promise<PlaceResult> {
    await this.slots.acquire(0);
    try {
      const message: PlaceJob = { ...job, kind: 'place', jobId: this.nextJobId++, blobsDir: blobs.dir };
      return (await this.ask(message, { transfer: [job.bytes.buffer as ArrayBuffer] })) as PlaceResult;
    } finally {
      this.slots.release();
    }
  }

  /**
   * Walks a folder on a copy worker (walk/walkJob.ts), so the walk costs this thread nothing but
   * the entries' messages: `onEntries` is told each group as it arrives. The walk takes a worker
   * but no copy slot (it copies nothing); its worker copies again once it is done. An `onEntries`
   * that throws (a limit passed) stops the walk, and the walk rejects with that error. One that
   * answers a promise holds the walk back (the message counts as handled once it settles): the
   * filing it feeds has enough waiting, and the entries of a large folder are not all held at once.
   */
  async walk(job: Omit<WalkJob, 'kind' | 'cancel'>, onEntries: (entries: WalkEntry[]) => Promise<void> | void, signal?: AbortSignal): Promise<WalkEnded> {
    signal?.throwIfAborted();
    // [0] the stop, [1] the entry messages handled here (walk/walkMessages.ts WalkJob.cancel).
    const cancel = new Int32Array(new SharedArrayBuffer(8));
    const stop = () => {
      Atomics.store(cancel, 0, 1);
      Atomics.notify(cancel, 1);
    };
    signal?.addEventListener('abort', stop, { once: true });
    let failure: { error: unknown } | undefined;
    // Messages of this walk not yet handled: while any is, the walk counts as held back.
    let holding = 0;
    const hold = (until: Promise<void>) => {
      count('walk.heldBack');
      if (holding++ === 0) this.holdWalk(1);
      void until.finally(() => {
        if (--holding === 0) this.holdWalk(-1);
      });
    };
    const handled = () => {
      Atomics.add(cancel, 1, 1);
      Atomics.notify(cancel, 1);
    };
    const told = (entries: WalkEntry[]) => {
      count('walk.entryMessages');
      let held: Promise<void> | void = undefined;
      if (!failure) {
        try {
          held = onEntries(entries);
        } catch (error) {
          failure = { error };
          stop();
        }
      }
      if (held) hold(held.then(handled, handled));
      else handled();
    };
    let end: CopyAnswer;
    try {
      const message: WalkJob = { ...job, kind: 'walk', cancel };
      end = await this.ask(message, { onProgress: told });
    } finally {
      signal?.removeEventListener('abort', stop);
    }
    if (failure) throw failure.error;
    signal?.throwIfAborted();
    if (!('kind' in end) || (end.kind !== 'walked' && end.kind !== 'walkFailed'))
      throw new HindsightError('INTERNAL', 'A copy worker answered a walk with something else.');
    if (end.kind === 'walkFailed') throw new HindsightError(end.error?.code ?? 'INTERNAL', end.error?.message ?? 'The walk stopped.', end.error?.details);
    // The walk's own counters, kept apart from this thread's (walk.lstat counts the walks run here).
    for (const [name, value] of Object.entries(end.counts)) count(`worker.${name}`, value);
    return end;
  }

  /**
   * Copies a project's index to `dest` on a copy worker, from a connection of its own
   * (db/backupIndexFile.ts): this thread only waits. Takes a worker but no copy slot; a failure
   * rejects with the worker's error (code and message).
   */
  async backupIndex(file: string, dest: string): Promise<void> {
    const job: BackupJob = { kind: 'backup', file, dest };
    const reply = await this.ask(job);
    if (!('kind' in reply) || (reply.kind !== 'backedUp' && reply.kind !== 'backupFailed'))
      throw new HindsightError('INTERNAL', 'A copy worker answered a backup with something else.');
    if (reply.kind === 'backupFailed') throw new HindsightError(reply.error.code, reply.error.message, reply.error.details);
    count('index.backupsOnWorker');
  }

  /**
   * Starts one worker ahead of the first job when there is none: a worker takes tens of
   * milliseconds of CPU to boot; started while the folder is still being walked, that time
   * overlaps the walk instead of delaying the first copies. More start only when batches queue up
   * (a small folder never pays for them). Idle workers never keep the process alive.
   */
  prestart(): void {
    if (this.closed || this.workers > 0) return;
    count('copy.prestarts');
    this.rest(this.spawn());
  }

  /** Ends every worker; jobs still running fail. The pool can be used again afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    const workers = [...this.idle, ...this.busy];
    this.idle.length = 0;
    for (const timer of this.retireTimers.values()) clearTimeout(timer);
    this.retireTimers.clear();
    this.workers = 0;
    for (const waiter of this.waiting.splice(0)) waiter.reject(new Error('The copy workers were closed.'));
    await Promise.all(workers.map((worker) => worker.close()));
    this.closed = false;
  }

  /** Runs one request on a free worker; the worker goes back to the pool once answered, unless it stopped. */
  private async ask(job: CopyRequest, options: RequestOptions<WalkEntry[]> = {}): Promise<CopyAnswer> {
    const worker = await this.freeWorker();
    let message = job;
    if ('known' in job && job.known) {
      // The list crosses to each worker once per filing; after that its id is enough.
      if (this.knownHeld.get(worker) === job.known.id) message = { ...job, known: { id: job.known.id } };
      else count('copy.knownListsSent');
      this.knownHeld.set(worker, job.known.id);
    }
    this.busy.add(worker);
    try {
      return await worker.request(message, options);
    } finally {
      this.busy.delete(worker);
      if (!worker.stopped && !this.closed) this.release(worker);
    }
  }

  /** A walk held back (+1) or let go (-1): a job waiting for a worker gets the one it allows. */
  private holdWalk(by: 1 | -1): void {
    this.heldWalks += by;
    if (by > 0 && !this.closed && this.waiting.length > 0 && this.workers < this.workerLimit()) this.release(this.spawn());
  }

  private workerLimit(): number {
    return Math.max(1, this.maxWorkers) + this.heldWalks;
  }

  /** An idle worker, a new one while under maxWorkers, else the first one to finish its job. */
  private freeWorker(): Promise<CopyThread> | CopyThread {
    const idle = this.idle.pop();
    if (idle) {
      clearTimeout(this.retireTimers.get(idle));
      this.retireTimers.delete(idle);
      return idle;
    }
    if (this.workers < this.workerLimit()) return this.spawn();
    return new Promise<CopyThread>((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  /** A worker done with its job: to the next job waiting for one, else idle. */
  private release(worker: CopyThread): void {
    const next = this.waiting.shift();
    if (next) next.resolve(worker);
    else this.rest(worker);
  }

  /** Idle until the next job, or ended once idle for `idleMs` (its stop does the accounting). */
  private rest(worker: CopyThread): void {
    this.idle.push(worker);
    const timer = setTimeout(() => {
      this.retireTimers.delete(worker);
      const at = this.idle.indexOf(worker);
      if (at < 0) return;
      this.idle.splice(at, 1);
      count('copy.workersRetired');
      void worker.close();
    }, this.idleMs);
    timer.unref();
    this.retireTimers.set(worker, timer);
  }

  private spawn(): CopyThread {
    const worker: CopyThread = new WorkerHost(this.workerScript, {
      name: 'A copy worker',
      resourceLimits: COPY_WORKER_LIMITS,
      // Idle workers never keep the process alive; a worker with a job does.
      unrefWhenIdle: true,
      trace: 'copy',
      // The nursery the isolate really got (what tests count).
      onStarted: () => countMax('copy.workerYoungGenerationMb', worker.resourceLimits.maxYoungGenerationSizeMb ?? 0),
      onStop: () => this.lose(worker),
    });
    this.workers++;
    count('copy.workers');
    return worker;
  }

  /** A worker stopped (retired, closed, exited, or failed): its job has failed with the reason. */
  private lose(worker: CopyThread): void {
    const at = this.idle.indexOf(worker);
    if (at >= 0) this.idle.splice(at, 1);
    clearTimeout(this.retireTimers.get(worker));
    this.retireTimers.delete(worker);
    this.workers = Math.max(0, this.workers - 1);
    // A job waiting for a worker gets a new one in place of the one lost.
    if (!this.closed && this.waiting.length > 0) this.release(this.spawn());
  }
}

let shared: CopyPool | undefined;

/** The one pool of this process, shared by every project that copies. */
export function sharedCopyPool(): CopyPool {
  shared ??= new CopyPool(new CopySlots(concurrencyFromEnv() ?? DEFAULT_COPY_CONCURRENCY));
  return shared;
}

/** HINDSIGHT_COPY_CONCURRENCY overrides the default for a whole process (benchmarks, tests). */
function concurrencyFromEnv(): number | undefined {
  const raw = process.env.HINDSIGHT_COPY_CONCURRENCY;
  if (!raw || !/^[1-9]\d{0,2}$/.test(raw)) return undefined;
  return Number(raw);
}
