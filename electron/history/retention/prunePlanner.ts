import { Worker } from 'node:worker_threads';
import type { ProjectStore } from '../project/projectStore.js';
import { count } from '../trace.js';
import { workerScript } from '../workerScripts.js';
import { decodeYoung, type FromWorker, type PlanMessage, type PlanRequest, type ToWorker } from './pruneProtocol.js';
import { uncommittedVersions } from './uncommitted.js';

// The history process's side of the prune planner (pruneWorker.ts): starts the worker for one
// prune, asks it for plans, and answers its question about young versions with the uncommitted
// rule's git calls (asynchronous, so the event loop stays free while git runs). Counts each plan
// received as `prune.workerPlans` (tests check no plan is made on this thread).

export type Plan = Omit<PlanMessage, 'type'>;

export class PrunePlanner {
  readonly #worker: Worker;
  #pending: { resolve: (plan: Plan) => void; reject: (error: Error) => void } | undefined;

  constructor(private readonly store: ProjectStore) {
    this.#worker = new Worker(workerScript('pruneWorker'));
    this.#worker.on('message', (message: FromWorker) => void this.#received(message));
    this.#worker.on('error', (error) => this.#fail(error));
    this.#worker.on('exit', (code) => this.#fail(new Error(`The prune planner stopped (exit code ${code}).`)));
  }

  /** A plan of the history as it is now. */
  plan(request: Omit<PlanRequest, 'type' | 'file'>): Promise<Plan> {
    return new Promise<Plan>((resolve, reject) => {
      this.#pending = { resolve, reject };
      this.#post({ type: 'plan', file: this.store.index.file, ...request });
    });
  }

  async close(): Promise<void> {
    this.#pending = undefined;
    await this.#worker.terminate();
  }

  async #received(message: FromWorker): Promise<void> {
    if (message.type === 'young') {
      try {
        const ids = await uncommittedVersions(this.store, decodeYoung(message), message.since);
        const answer = Float64Array.from(ids);
        this.#post({ type: 'uncommitted', ids: answer }, [answer.buffer as ArrayBuffer]);
      } catch (error) {
        this.#fail(error as Error);
      }
      return;
    }
    const pending = this.#pending;
    this.#pending = undefined;
    if (message.type === 'failed') return pending?.reject(new Error(message.message));
    count('prune.workerPlans');
    pending?.resolve({ fingerprint: message.fingerprint, summary: message.summary, chunks: message.chunks });
  }

  #post(message: ToWorker, transfer: ArrayBuffer[] = []): void {
    this.#worker.postMessage(message, transfer);
  }

  #fail(error: Error): void {
    const pending = this.#pending;
    this.#pending = undefined;
    pending?.reject(error);
  }
}
