import Database from 'better-sqlite3';
import { indexError } from './sqliteErrors.js';
import { Sql } from './sql.js';
import { publishBaseline, stageBatch, type BaselinePublish, type PublishedBaseline, type StagedBatch } from './stagedBaseline.js';

// A connection of its own to a history.db the history process has opened (and migrated), on the
// commit thread (commitWorker.ts): a first copy's baseline of tens of thousands of rows is written
// here, batch by batch and then published (stagedBaseline.ts), so the history process's main
// thread does not spend a second in SQLite. The publish takes the write lock before it reads
// (immediate), so another connection's commit in between cannot fail it; busy_timeout waits for
// one that holds the lock.

export type ThreadCommit =
  { file: string; stage: StagedBatch } | { file: string; publish: BaselinePublish; context: { branch: string | null; head: string | null } | undefined };

export class SnapshotWriter {
  readonly #db: Database.Database;
  readonly #sql: Sql;

  constructor(readonly file: string) {
    try {
      this.#db = new Database(file, { fileMustExist: true });
      this.#db.pragma('busy_timeout = 5000');
      this.#db.pragma('synchronous = NORMAL');
      this.#db.pragma('foreign_keys = ON');
    } catch (error) {
      throw indexError(error, file);
    }
    this.#sql = new Sql(this.#db, file);
  }

  /** Writes one batch of the baseline's staged rows. */
  stage(batch: StagedBatch): void {
    stageBatch(this.#sql, batch);
  }

  /**
   * Publishes the staged baseline. Asked only for a history with no blob marked or collected by a
   * prune (HistoryIndex.anyPruned), so no blob file needs a look: should one be marked meanwhile,
   * the write fails (BLOB_MISSING, record again) rather than name a blob that may be gone.
   */
  publish(publish: BaselinePublish, context: { branch: string | null; head: string | null } | undefined): PublishedBaseline {
    return this.#sql.immediate(() => publishBaseline(this.#sql, publish, context, () => false));
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }
}
