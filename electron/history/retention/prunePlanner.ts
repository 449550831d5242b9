import { Worker } from 'node:worker_threads';
import type { ProjectStore } from '../project/projectStore.js';
import { count } from '../trace.js';
import { errorOfFailure } from '../workerFailure.js';
import { workerScript } from '../workerScripts.js';
import { decodeOids, type FromWorker, type PlanMessage, type PlanRequest } from './pruneProtocol.js';

// The history process's side of the prune planner (pruneWorker.ts): starts the worker for one
// prune and asks it for plans of the history as it is. What stays on this thread per plan: the
// request, the git ids the worker computed written to history.db (one short transaction), and
// the plan received. Counts each plan received as `prune.workerPlans` (tests check that no plan
// is made on this thread: `prune.plans` stays 0 here).

export type Plan = Omit<PlanMessage, 'type' | 'gitOids' | 'niceness'>;

export class PrunePlanner {
  readonly #worker: Worker;
  #pending: { resolve: (plan: Plan) => void; reject: (error: Error) => void } | undefined;

  constructor(private readonly store: ProjectStore) {
    this.#worker = new Worker(workerScript('pruneWorker'));
    this.#worker.on('message', (message: FromWorker) => this.#received(message));
    this.#worker.on('error', (error) => this.#fail(error));
    this.#worker.on('exit', (code) => this.#fail(new Error(`The prune planner stopped (exit code ${code}).`)));
  }

  /** A plan of the history as it is now. */
  plan(request: Pick<PlanRequest, 'policy' | 'budget' | 'decisions' | 'chunkRows'>): Promise<Plan> {
    const message: PlanRequest = {
      type: 'plan',
      file: this.store.index.file,
      workTree: this.store.git.repository()?.workTree ?? null,
      blobsDir: this.store.blobsDir,
      ...request,
    };
    return new Promise<Plan>((resolve, reject) => {
      this.#pending = { resolve, reject };
      this.#worker.postMessage(message);
    });
  }

  async close(): Promise<void> {
    this.#pending = undefined;
    await this.#worker.terminate();
  }

  #received(message: FromWorker): void {
    const pending = this.#pending;
    this.#pending = undefined;
    if (message.type === 'failed') {
      return pending?.reject(errorOfFailure(message));
    }
    count('prune.workerPlans');
    if (message.niceness === 19) count('prune.lowPriorityPlans');
    const oids = decodeOids(message.gitOids);
    if (oids.length > 0) this.store.index.rememberGitOids(oids);
    pending?.resolve({ fingerprint: message.fingerprint, summary: message.summary, chunks: message.chunks });
  }

  #fail(error: Error): void {
    const pending = this.#pending;
    this.#pending = undefined;
    pending?.reject(error);
  }
}
