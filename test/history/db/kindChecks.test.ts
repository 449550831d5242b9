import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { migrate } from '../../../electron/history/db/migrations.js';
import { ORIGIN_KINDS, SNAPSHOT_KINDS } from '../../../shared/history.js';
import { tempDir } from '../../helpers/tempDirs.js';

// The kinds of a snapshot and of its origin are listed once, in shared/history.ts. history.db's
// CHECKs were written by migrations that never change, so a kind added to shared without a
// migration that rebuilds the CHECK would be refused by SQLite at the first write: this reads the
// CHECKs of a freshly migrated schema from sqlite_master and compares them with shared's lists.

function schemaOf(): string {
  const db = new Database(join(tempDir(), 'history.db'));
  try {
    migrate(db);
    return db
      .prepare<[], { sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'snapshots'")
      .all()
      .map((r) => r.sql)
      .join('\n');
  } finally {
    db.close();
  }
}

/** The quoted values of `CHECK (<column> IN (...))` in a table's SQL. */
function checkedValues(sql: string, column: string): string[] {
  const match = new RegExp(`CHECK \\(${column} IN \\(([^)]*)\\)`).exec(sql);
  if (!match) throw new Error(`no CHECK on ${column} in ${sql}`);
  return [...match[1]!.matchAll(/'([^']*)'/g)].map((m) => m[1]!);
}

describe('the kinds in history.db', () => {
  it("lists exactly shared's snapshot kinds in the CHECK on snapshots.kind", () => {
    expect(checkedValues(schemaOf(), 'kind').sort()).toEqual([...SNAPSHOT_KINDS].sort());
  });

  it("lists exactly shared's origin kinds in the CHECK on snapshots.origin", () => {
    expect(checkedValues(schemaOf(), 'origin').sort()).toEqual([...ORIGIN_KINDS].sort());
  });
});
