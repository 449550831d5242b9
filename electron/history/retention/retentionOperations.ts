import type { PruneResult, RetentionStatus } from '../../../shared/contract.js';
import type { RetentionPolicy } from '../../../shared/retention.js';
import type { ProjectStore } from '../project/projectStore.js';
import type { ArchiveTarget } from './archiveThinned.js';
import { prune } from './prune.js';
import { retentionStatus } from './retentionStatus.js';

// The engine's retention operations under the settings read at each call (the policy and the
// budget): a prune, one at a time per project in this process (the automatic one and a click wait
// for each other, whichever failed), and the history measured against its budget.

export interface RetentionContext {
  settings: () => { retention: RetentionPolicy; historyBudget: number | null };
  /** Where a prune moves what it thins: the remote named (remote/archiveTarget.ts). */
  archiveTarget: (store: ProjectStore, remoteName: string) => ArchiveTarget;
}

export interface PruneRequest {
  dryRun?: boolean;
  now?: number;
  /** The remote to move what the policy thins to (default: the setting retention.archiveToRemote). */
  archiveTo?: string;
}

export class RetentionOperations {
  private readonly pruning = new Map<string, Promise<unknown>>();

  constructor(private readonly context: RetentionContext) {}

  prune(store: ProjectStore, request: PruneRequest = {}): Promise<PruneResult> {
    const { retention, historyBudget } = this.context.settings();
    const { archiveTo = retention.archiveToRemote ?? undefined, ...rest } = request;
    const archive = archiveTo === undefined ? undefined : this.context.archiveTarget(store, archiveTo);
    return this.inTurn(store.projectId, () => prune(store, { policy: retention, budget: historyBudget, ...rest, archive }));
  }

  /** The history against its budget, the policy, the pins and the `holders` files holding the most bytes. */
  status(store: ProjectStore, holders: number): RetentionStatus {
    const { retention, historyBudget } = this.context.settings();
    return retentionStatus(store, retention, historyBudget, holders);
  }

  /** Runs after the project's prune under way, if any; the turn passes on whether it failed or not. */
  private inTurn<T>(projectId: string, work: () => Promise<T>): Promise<T> {
    const next = (this.pruning.get(projectId) ?? Promise.resolve()).then(work, work);
    const settled = next.catch(() => undefined);
    this.pruning.set(projectId, settled);
    void settled.then(() => this.pruning.get(projectId) === settled && this.pruning.delete(projectId));
    return next;
  }
}
