import type Database from 'better-sqlite3';
import { openReadOnly } from './indexFile.js';
import { indexError } from './sqliteErrors.js';
import { Sql } from './sql.js';

// A worker thread's own read-only connection to a history.db the history process has opened and
// migrated (WAL lets it read while that process writes): the prune planner's and a search's.
// Opening it fails with the index's own error, naming the file.

export abstract class ReadOnlyReader {
  readonly #db: Database.Database;
  protected readonly sql: Sql;

  constructor(readonly file: string) {
    try {
      this.#db = openReadOnly(file);
    } catch (error) {
      throw indexError(error, file);
    }
    this.sql = new Sql(this.#db, file);
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }
}
