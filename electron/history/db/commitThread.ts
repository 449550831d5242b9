import { HindsightError } from '../../../shared/errors.js';
import { count } from '../trace.js';
import { WorkerHost } from '../workerHost.js';
import { workerScript } from '../workerScripts.js';
import type { SnapshotEffect, SnapshotInfo } from '../../../shared/history.js';
import type { SnapshotWrite } from './commitSnapshot.js';
import type { ThreadCommit } from './snapshotWriter.js';
import type { BaselinePublish, PublishedBaseline, StagedBatch } from './stagedBaseline.js';

// A thread that writes one large baseline (a first copy's) from its own connection
// (commitWorker.ts, snapshotWriter.ts), batch by batch, then publishes it, so the history
// process's main thread spends that time waiting, not in SQLite: what is left to it is sending
// each batch's rows (a structured clone). Started as soon as the copy knows it is large, so its
// boot (a thread and SQLite's load) overlaps the copy.

/** What the thread needs of the index that holds it (historyIndex.ts): declared here, so the two files do not import each other. */
export interface CommitThreadIndex {
  readonly file: string;
  anyPruned(): boolean;
  publishBaseline(publish: BaselinePublish): number;
  contextFor(snapshot: SnapshotWrite['snapshot']): { branch: string | null; head: string | null } | undefined;
  announce(committed: SnapshotInfo, effect: SnapshotEffect | undefined): void;
}

export class CommitThread {
  readonly #host = new WorkerHost<ThreadCommit, PublishedBaseline | null>(workerScript('commitWorker'), { name: 'The commit thread', unrefWhenIdle: true });

  constructor(private readonly index: CommitThreadIndex) {}

  /** Writes one batch of the baseline's staged rows on the thread. */
  async stage(batch: StagedBatch): Promise<void> {
    await this.#host.request({ file: this.index.file, stage: batch });
  }

  /**
   * Publishes the staged baseline on the thread, then announces it as a publish here would. A
   * history a prune marked needs a look at blob files while publishing: that one is published
   * here instead.
   */
  async publish(publish: BaselinePublish): Promise<number> {
    if (this.index.anyPruned()) return this.index.publishBaseline(publish);
    const published = await this.#host.request({ file: this.index.file, publish, context: this.index.contextFor(publish.snapshot) });
    if (!published) throw new HindsightError('INTERNAL', 'The commit thread answered the baseline with nothing.');
    count('index.commitsOnThread');
    this.index.announce(published.committed, published.effect);
    return published.committed.snapshotId;
  }

  async close(): Promise<void> {
    await this.#host.close();
  }
}
