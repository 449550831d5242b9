import { Worker, type ResourceLimits, type Transferable } from 'node:worker_threads';
import { HindsightError } from '../../shared/errors.js';
import type { FromWorker, ToWorker, WorkerSetup } from './workerEnvelope.js';
import { errorOfFailure } from './workerFailure.js';
import { count } from './trace.js';

// The history process's side of one worker thread (the prune planner, a search, the search index
// build, a pack worker, a copy worker): the one place a thread is started. Starts it (its script from workerScripts.ts), sends requests and matches
// each reply to its request by id, revives a failure as the error it was on the thread
// (workerFailure.ts), and fails every open request with a typed error when the thread stops.
// The thread's side is serveRequests.ts.

export interface WorkerHostOptions {
  /** What the thread is, as the error of a thread that stopped names it ("The prune planner"). */
  name: string;
  /** Background work: the thread takes the lowest priority (threadPriority.ts). */
  lowPriority?: boolean;
  /** An idle thread does not keep the process alive (a CLI command that is done does not wait for it). */
  unrefWhenIdle?: boolean;
  /** The thread's heap limits (a copy worker's small young generation). */
  resourceLimits?: ResourceLimits;
  /** Counts each message sent to the thread as `<trace>.messagesOut` and each received as `<trace>.messagesIn`. */
  trace?: string;
  /** Told once the thread has started (its limits are then in force: `resourceLimits`). */
  onStarted?: () => void;
  /** Told once when the thread stops (an uncaught error, an exit, a close), after its open requests failed. */
  onStop?: (error: Error) => void;
}

export interface RequestOptions<Progress = never> {
  /** Buffers moved to the thread, not copied. */
  transfer?: Transferable[];
  /** Rejects this request at once (the thread is left to the caller to close). */
  signal?: AbortSignal;
  /** Told each message the thread sends under this request before its reply (a walk's entries). */
  onProgress?: (progress: Progress) => void;
}

interface Pending<Reply, Progress> {
  resolve: (reply: Reply) => void;
  reject: (error: Error) => void;
  onProgress?: (progress: Progress) => void;
}

export class WorkerHost<Request, Reply, Progress = never> {
  readonly #worker: Worker;
  readonly #options: WorkerHostOptions;
  readonly #pending = new Map<number, Pending<Reply, Progress>>();
  #ids = 0;
  #stopped: Error | undefined;
  #niceness: number | null = null;

  constructor(script: string | URL, options: WorkerHostOptions) {
    this.#options = options;
    const setup: WorkerSetup = { lowPriority: options.lowPriority === true };
    this.#worker = new Worker(script, { workerData: setup, resourceLimits: options.resourceLimits });
    if (options.unrefWhenIdle) this.#worker.unref();
    this.#worker.on('message', (message: FromWorker<Reply, Progress>) => this.#received(message));
    this.#worker.on('error', (error) => this.#stop(error));
    this.#worker.on('exit', (code) => this.#stop(new HindsightError('INTERNAL', `${options.name} stopped (exit code ${code}).`, { exitCode: code })));
  }

  /** The thread's niceness as it told at its start (null: left alone, or not told yet). */
  get niceness(): number | null {
    return this.#niceness;
  }

  /** The heap limits the thread runs with (empty until it has started). */
  get resourceLimits(): ResourceLimits {
    return this.#worker.resourceLimits ?? {};
  }

  /** Requests sent and not answered yet. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Whether the thread has stopped (a closed host, an uncaught error, an exit). */
  get stopped(): boolean {
    return this.#stopped !== undefined;
  }

  request(request: Request, options: RequestOptions<Progress> = {}): Promise<Reply> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(cancelReason(signal));
    const id = ++this.#ids;
    return new Promise<Reply>((resolve, reject) => {
      const abort = (): void => {
        if (this.#pending.delete(id)) this.#idle();
        reject(cancelReason(signal!));
      };
      signal?.addEventListener('abort', abort, { once: true });
      const settled = (): void => signal?.removeEventListener('abort', abort);
      this.#pending.set(id, {
        onProgress: options.onProgress,
        resolve(reply) {
          settled();
          resolve(reply);
        },
        reject(error) {
          settled();
          reject(error);
        },
      });
      if (this.#pending.size === 1 && this.#options.unrefWhenIdle) this.#worker.ref();
      const message: ToWorker<Request> = { id, request };
      if (this.#options.trace) count(`${this.#options.trace}.messagesOut`);
      this.#worker.postMessage(message, options.transfer);
    });
  }

  /** Ends the thread; a request still open fails as cancelled. */
  async close(): Promise<void> {
    this.#stop(new HindsightError('CANCELLED', `${this.#options.name} was closed.`));
    await this.#worker.terminate();
  }

  #received(message: FromWorker<Reply, Progress>): void {
    if (this.#options.trace) count(`${this.#options.trace}.messagesIn`);
    if (message.type === 'started') {
      this.#niceness = message.niceness;
      this.#options.onStarted?.();
      return;
    }
    const pending = this.#pending.get(message.id);
    if (!pending) return;
    if (message.type === 'progress') {
      pending.onProgress?.(message.progress);
      return;
    }
    this.#pending.delete(message.id);
    this.#idle();
    if (message.type === 'failed') pending.reject(errorOfFailure(message.failure));
    else pending.resolve(message.reply);
  }

  #stop(error: Error): void {
    const first = this.#stopped === undefined;
    this.#stopped ??= error;
    const open = [...this.#pending.values()];
    this.#pending.clear();
    for (const pending of open) pending.reject(error);
    if (first) this.#options.onStop?.(error);
  }

  #idle(): void {
    if (this.#pending.size === 0 && this.#options.unrefWhenIdle) this.#worker.unref();
  }
}

function cancelReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new HindsightError('CANCELLED', 'Cancelled.');
}
