import { count } from '../trace.js';
import type { Sql } from './sql.js';

// Many rows into one table, ROWS_PER_STATEMENT to a statement: an import writes 50,000 versions
// and as many blobs in one transaction, and a statement per row spends about as much on running
// the statement (binding, stepping, the call into SQLite) as on the row itself. 100 rows of ten
// columns stay far below SQLite's 32,766 parameters. Each batch length is one statement compiled
// once and kept (sql.ts): at most ROWS_PER_STATEMENT of them per table, however many imports.
// Trace counter `db.rowStatements` counts the statements run.

export const ROWS_PER_STATEMENT = 100;

/**
 * Runs `head` (an `INSERT ... (columns)` without VALUES) over `rows`, each row its columns' values
 * in order; `tail` follows the VALUES (an upsert's ON CONFLICT clause).
 */
export function insertRows(sql: Sql, head: string, rows: readonly (readonly unknown[])[], tail = ''): void {
  for (let at = 0; at < rows.length; at += ROWS_PER_STATEMENT) {
    const batch = rows.slice(at, at + ROWS_PER_STATEMENT);
    const row = `(${batch[0]!.map(() => '?').join(', ')})`;
    const params: unknown[] = [];
    for (const values of batch) for (const value of values) params.push(value);
    count('db.rowStatements');
    sql.run(`${head} VALUES ${Array<string>(batch.length).fill(row).join(', ')} ${tail}`, params);
  }
}
