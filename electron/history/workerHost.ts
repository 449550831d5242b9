import { Worker, type Transferable } from 'node:worker_threads';
import { HindsightError } from '../../shared/errors.js';
import type { FromWorker, ToWorker, WorkerSetup } from './workerEnvelope.js';
import { errorOfFailure } from './workerFailure.js';

// The history process's side of one worker thread (the prune planner, a search, the search index
// build, a pack worker): starts it (its script from workerScripts.ts), sends requests and matches
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
}

export interface RequestOptions {
  /** Buffers moved to the thread, not copied. */
  transfer?: Transferable[];
  /** Rejects this request at once (the thread is left to the caller to close). */
  signal?: AbortSignal;
}

interface Pending<Reply> {
  resolve: (reply: Reply) => void;
  reject: (error: Error) => void;
}

export class WorkerHost<Request, Reply> {
  readonly #worker: Worker;
  readonly #options: WorkerHostOptions;
  readonly #pending = new Map<number, Pending<Reply>>();
  #ids = 0;
  #stopped: Error | undefined;
  #niceness: number | null = null;

  constructor(script: string | URL, options: WorkerHostOptions) {
    this.#options = options;
    const setup: WorkerSetup = { lowPriority: options.lowPriority === true };
    this.#worker = new Worker(script, { workerData: setup });
    if (options.unrefWhenIdle) this.#worker.unref();
    this.#worker.on('message', (message: FromWorker<Reply>) => this.#received(message));
    this.#worker.on('error', (error) => this.#stop(error));
    this.#worker.on('exit', (code) => this.#stop(new HindsightError('INTERNAL', `${options.name} stopped (exit code ${code}).`, { exitCode: code })));
  }

  /** The thread's niceness as it told at its start (null: left alone, or not told yet). */
  get niceness(): number | null {
    return this.#niceness;
  }

  /** Requests sent and not answered yet. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Whether the thread has stopped (a closed host, an uncaught error, an exit). */
  get stopped(): boolean {
    return this.#stopped !== undefined;
  }

  request(request: Request, options: RequestOptions = {}): Promise<Reply> {
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
      this.#worker.postMessage(message, options.transfer);
    });
  }

  /** Ends the thread; a request still open fails as cancelled. */
  async close(): Promise<void> {
    this.#stop(new HindsightError('CANCELLED', `${this.#options.name} was closed.`));
    await this.#worker.terminate();
  }

  #received(message: FromWorker<Reply>): void {
    if (message.type === 'started') {
      this.#niceness = message.niceness;
      return;
    }
    const pending = this.#pending.get(message.id);
    if (!pending) return;
    this.#pending.delete(message.id);
    this.#idle();
    if (message.type === 'failed') pending.reject(errorOfFailure(message.failure));
    else pending.resolve(message.reply);
  }

  #stop(error: Error): void {
    this.#stopped ??= error;
    const open = [...this.#pending.values()];
    this.#pending.clear();
    for (const pending of open) pending.reject(error);
  }

  #idle(): void {
    if (this.#pending.size === 0 && this.#options.unrefWhenIdle) this.#worker.unref();
  }
}

function cancelReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new HindsightError('CANCELLED', 'Cancelled.');
}
