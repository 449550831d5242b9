import type { SnapshotInfo } from '../../../shared/history.js';
import { count } from '../trace.js';
import { WorkerHost } from '../workerHost.js';
import { workerScript } from '../workerScripts.js';
import type { HistoryIndex } from './historyIndex.js';
import type { SnapshotWrite } from './commitSnapshot.js';
import type { ThreadCommit } from './snapshotWriter.js';

// A thread that commits one large snapshot (a first copy's baseline) from its own connection
// (commitWorker.ts, snapshotWriter.ts), so the history process's main thread spends the commit's
// time waiting, not in SQLite: what is left to it is sending the rows (one structured clone).
// Started as soon as the copy knows it is large, so its boot (a thread and SQLite's load) overlaps
// the copy.

export class CommitThread {
  readonly #host = new WorkerHost<ThreadCommit, SnapshotInfo>(workerScript('commitWorker'), { name: 'The commit thread', unrefWhenIdle: true });

  constructor(private readonly index: HistoryIndex) {}

  /**
   * Commits `write` into the index's file on the thread, then announces it as a commit here
   * would. A history a prune marked needs a look at blob files while committing: that one is
   * committed here instead.
   */
  async commit(write: SnapshotWrite): Promise<number> {
    if (this.index.anyPruned()) return this.index.commitSnapshot(write);
    const committed = await this.#host.request({ file: this.index.file, write, context: this.index.contextFor(write.snapshot) });
    count('index.commitsOnThread');
    this.index.announce(committed, write);
    return committed.snapshotId;
  }

  async close(): Promise<void> {
    await this.#host.close();
  }
}
