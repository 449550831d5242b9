import type Database from 'better-sqlite3';
import { count } from '../trace.js';
import { indexError } from './sqliteErrors.js';
import type { WriteGate } from './writeGate.js';

// The one way code in db/ reaches SQLite: statements compiled once per index and reused (better-
// sqlite3 compiles on every prepare), and transactions. The connection itself never leaves db/.
// An SQLite error leaves here as a typed error naming the file (sqliteErrors.ts).

type Params = unknown[];

export class Sql {
  private readonly statements = new Map<string, Database.Statement<Params>>();

  /** Set on the history process's connection while a search index build writes from a worker thread (writeGate.ts). */
  gate: WriteGate | undefined;

  constructor(
    private readonly db: Database.Database,
    private readonly file: string,
  ) {}

  get<T>(text: string, ...params: Params): T | undefined {
    // eslint-disable-next-line no-restricted-syntax -- the statement's own parameters, forwarded: as many as its placeholders (SQLite allows 32,766)
    return this.mapped(() => this.statement(text).get(...params) as T | undefined);
  }

  all<T>(text: string, ...params: Params): T[] {
    // eslint-disable-next-line no-restricted-syntax -- the statement's own parameters, forwarded: as many as its placeholders (SQLite allows 32,766)
    return this.mapped(() => this.statement(text).all(...params) as T[]);
  }

  /** Rows as plain arrays, in column order: cheaper than an object per row for large reads. */
  rows<T extends unknown[]>(text: string, ...params: Params): T[] {
    // eslint-disable-next-line no-restricted-syntax -- the statement's own parameters, forwarded: as many as its placeholders (SQLite allows 32,766)
    return this.mapped(() => this.statement(text, true).all(...params) as T[]);
  }

  /**
   * Rows as plain arrays, one at a time as SQLite steps: a large answer is never held in one
   * array. Other reads may run between two rows; the statement itself stays busy until the loop ends.
   */
  *iterateRows<T extends unknown[]>(text: string, ...params: Params): Generator<T> {
    // eslint-disable-next-line no-restricted-syntax -- the statement's own parameters, forwarded: as many as its placeholders (SQLite allows 32,766)
    const rows = this.mapped(() => this.statement(text, true).iterate(...params) as IterableIterator<T>);
    try {
      for (;;) {
        const next = this.mapped(() => rows.next());
        if (next.done === true) return;
        yield next.value;
      }
    } finally {
      // A loop left early frees the statement for its next use.
      rows.return?.();
    }
  }

  /** A write; outside a transaction it takes the write gate on its own (inside one, the transaction holds it). */
  run(text: string, ...params: Params): Database.RunResult {
    // eslint-disable-next-line no-restricted-syntax -- the statement's own parameters, forwarded: as many as its placeholders (SQLite allows 32,766)
    return this.gated(() => this.mapped(() => this.statement(text).run(...params)));
  }

  /** Runs `work` in one transaction that takes the write lock first: what it reads, no other writer changes before it commits. */
  immediate<T>(work: () => T): T {
    return this.gated(() => this.mapped(() => this.db.transaction(work).immediate()));
  }

  /** Runs a statement that must not run inside a transaction (VACUUM); answers nothing. */
  exec(text: string): void {
    this.db.exec(text);
  }

  pragma(text: string): unknown {
    return this.db.pragma(text, { simple: true });
  }

  /** Runs `work` in one transaction: all of its writes or none. */
  transaction<T>(work: () => T): T {
    return this.gated(() => this.mapped(() => this.db.transaction(work)()));
  }

  private gated<T>(work: () => T): T {
    const gate = this.gate;
    if (!gate) return work();
    gate.enterMain();
    try {
      return work();
    } finally {
      gate.leaveMain();
    }
  }

  private mapped<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      throw indexError(error, this.file);
    }
  }

  private statement(text: string, raw = false): Database.Statement<Params> {
    const key = raw ? `raw:${text}` : text;
    let statement = this.statements.get(key);
    if (!statement) {
      count('db.prepares');
      statement = this.db.prepare<Params>(text);
      if (raw) statement.raw(true);
      this.statements.set(key, statement);
    }
    return statement;
  }
}
