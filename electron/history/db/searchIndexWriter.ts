import Database from 'better-sqlite3';
import { recordIndexed, unindexedBlobs, type IndexedBlob } from './searchIndex.js';
import { indexError } from './sqliteErrors.js';
import { Sql } from './sql.js';
import { WriteGate } from './writeGate.js';

// The search index build's own connection to history.db, opened by its worker thread
// (search/indexWorker.ts) on a history the history process has opened (and migrated): it reads
// which blobs are left and writes the index, one batch per transaction, taking turns with the
// history process's connection through the write gate (writeGate.ts).

/**
 * The build's page cache, in KiB (about SQLite's own default; the driver's is 16 MiB). What the
 * build's thread allocates stays resident after the thread ends (malloc keeps an ended thread's
 * arena for the next thread, and gives back only its top), so the build is kept from allocating
 * what it barely uses: it writes each index page once per batch and reads little back.
 */
export const BUILD_CACHE_KIB = 2048;

export class SearchIndexWriter {
  readonly #db: Database.Database;
  readonly #sql: Sql;
  readonly #gate: WriteGate;

  constructor(
    readonly file: string,
    gate: SharedArrayBuffer,
  ) {
    try {
      this.#db = new Database(file, { fileMustExist: true });
      this.#db.pragma('busy_timeout = 5000');
      this.#db.pragma('synchronous = NORMAL');
      this.#db.pragma(`cache_size = -${BUILD_CACHE_KIB}`);
    } catch (error) {
      throw indexError(error, file);
    }
    this.#sql = new Sql(this.#db, file);
    this.#gate = new WriteGate(gate);
  }

  unindexedBlobs(after: string, maxSize: number, limit: number): { hash: string; size: number }[] {
    return unindexedBlobs(this.#sql, after, maxSize, limit);
  }

  /** One batch in one transaction, ended early when the history process wants to write (and waiting while it does). */
  recordIndexed(batch: readonly IndexedBlob[]): { recorded: number; added: number } {
    this.#gate.enterBuild();
    try {
      return recordIndexed(this.#sql, batch, () => this.#gate.wanted());
    } finally {
      this.#gate.leaveBuild();
    }
  }

  /** The connection's page cache limit, in KiB. */
  cacheKib(): number {
    return -(this.#db.pragma('cache_size', { simple: true }) as number);
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }
}
