import Database from 'better-sqlite3';
import type { SnapshotInfo } from '../../../shared/history.js';
import { commitSnapshot, type SnapshotWrite } from './commitSnapshot.js';
import { indexError } from './sqliteErrors.js';
import { Sql } from './sql.js';

// A connection of its own to a history.db the history process has opened (and migrated), on the
// commit thread (commitWorker.ts): a first copy's baseline of tens of thousands of rows is written
// here, so the history process's main thread does not spend a second in SQLite. The transaction
// takes the write lock before it reads (immediate), so another connection's commit in between
// cannot fail it; busy_timeout waits for one that holds the lock.

export interface ThreadCommit {
  file: string;
  write: SnapshotWrite;
  context: { branch: string | null; head: string | null } | undefined;
}

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

  /**
   * Commits one snapshot. Asked only for a history with no blob marked or collected by a prune
   * (HistoryIndex.anyPruned), so no blob file needs a look: should one be marked meanwhile, the
   * write fails (BLOB_MISSING, record again) rather than name a blob that may be gone.
   */
  commit(write: SnapshotWrite, context: ThreadCommit['context']): SnapshotInfo {
    return this.#sql.immediate(() => commitSnapshot(this.#sql, write, context, () => false));
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }
}
