import * as stagedBaseline from './stagedBaseline.js';
import type { StagedBatch } from './stagedBaseline.js';
import type { Sql } from './sql.js';

// A first copy's baseline while it is staged (HistoryIndex.staged, stagedBaseline.ts): each batch
// written where no reader looks, counted, or cleared after a copy that did not publish. The
// publish itself announces a snapshot, so it stays on HistoryIndex (publishBaseline).

export class StagedBaselineIndex {
  constructor(private readonly sql: Sql) {}

  /** One batch of a first copy's baseline, written where no reader looks. */
  stageBaseline(batch: StagedBatch): void {
    stagedBaseline.stageBatch(this.sql, batch);
  }

  /** Forgets the rows a first copy staged and did not publish; answers how many files were staged. */
  clearStagedBaseline(): number {
    return stagedBaseline.clearStaged(this.sql);
  }

  /** How many files a first copy has staged and not yet published. */
  stagedBaselineFiles(): number {
    return stagedBaseline.stagedFiles(this.sql);
  }
}
