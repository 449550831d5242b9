import type { ProjectStore } from '../project/projectStore.js';
import { LOWEST_PRIORITY } from '../threadPriority.js';
import { count } from '../trace.js';
import { WorkerHost } from '../workerHost.js';
import { workerScript } from '../workerScripts.js';
import { decodeOids, type PlanMessage, type PlanRequest } from './pruneProtocol.js';

// The history process's side of the prune planner (pruneWorker.ts): starts the worker for one
// prune, at the lowest priority, and asks it for plans of the history as it is. What stays on
// this thread per plan: the request, the git ids the worker computed written to history.db (one
// short transaction), and the plan received. Counts each plan received as `prune.workerPlans`
// (tests check that no plan is made on this thread: `prune.plans` stays 0 here).

export type Plan = Omit<PlanMessage, 'type' | 'gitOids'>;

export class PrunePlanner {
  readonly #host = new WorkerHost<PlanRequest, PlanMessage>(workerScript('pruneWorker'), { name: 'The prune planner', lowPriority: true });

  constructor(private readonly store: ProjectStore) {}

  /** A plan of the history as it is now. */
  async plan(request: Pick<PlanRequest, 'policy' | 'budget' | 'decisions' | 'chunkRows'>): Promise<Plan> {
    const message: PlanRequest = {
      type: 'plan',
      file: this.store.index.file,
      workTree: this.store.git.repository()?.workTree ?? null,
      storeDir: this.store.storeDir,
      ...request,
    };
    return this.#received(await this.#host.request(message));
  }

  close(): Promise<void> {
    return this.#host.close();
  }

  #received(message: PlanMessage): Plan {
    count('prune.workerPlans');
    if (this.#host.niceness === LOWEST_PRIORITY) count('prune.lowPriorityPlans');
    const oids = decodeOids(message.gitOids);
    if (oids.length > 0) this.store.index.prune.rememberGitOids(oids);
    return { fingerprint: message.fingerprint, summary: message.summary, chunks: message.chunks };
  }
}
