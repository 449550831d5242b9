import { describe, expect, it, onTestFinished } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { blobsBetween } from '../../../electron/history/db/bundleRows.js';
import { Sql } from '../../../electron/history/db/sql.js';
import { historyDbPath } from '../../../electron/history/store/storeLayout.js';
import { notRacy, projectWithBaseline } from '../versions/versionsHelpers.js';

// The blob list of an export, on a real index: a whole history asks no question per blob of the
// versions before it (none are), so its query has no correlated subquery; an incremental one still
// marks the blobs the receiver holds.

/** The statements `read` runs on a connection of its own to `file`, each with its query plan. */
function plansOf<T>(file: string, read: (sql: Sql) => T): { result: T; plans: string[][] } {
  const ran: string[] = [];
  const db = new Database(file, { readonly: true, verbose: (text) => ran.push(String(text)) });
  onTestFinished(() => {
    db.close();
  });
  const result = read(new Sql(db, file));
  const plans = ran.map((text) =>
    db
      .prepare(`EXPLAIN QUERY PLAN ${text}`)
      .all()
      .map((row) => (row as { detail: string }).detail),
  );
  return { result, plans };
}

describe('the blob list of an export', () => {
  it('probes no version per blob for a whole history, and still marks what an incremental one holds', async () => {
    const { engine, root, projectId, store } = await projectWithBaseline({ 'a.txt': 'one', 'b.txt': 'two', 'c.txt': 'three' });
    writeFileSync(join(root, 'a.txt'), 'one, edited');
    writeFileSync(join(root, 'd.txt'), 'two');
    notRacy(store);
    await engine.rescan(projectId);
    const last = store.index.snapshotReads.lastSnapshotId()!;
    const file = historyDbPath(store.storeDir);

    const whole = plansOf(file, (sql) => blobsBetween(sql, 0, last));
    expect(whole.result.map((b) => b.held)).toEqual([0, 0, 0, 0]);
    expect(whole.plans.flat().filter((detail) => detail.includes('CORRELATED'))).toEqual([]);

    // After the baseline: the edit's new bytes, and d.txt's, which the baseline's b.txt holds already.
    const after = plansOf(file, (sql) => blobsBetween(sql, 1, last));
    expect(after.result.map((b) => [b.size, b.held]).sort((x, y) => x[0]! - y[0]!)).toEqual([
      [3, 1],
      [11, 0],
    ]);
    const again = plansOf(file, (sql) => blobsBetween(sql, 0, 1));
    expect(again.result.map((b) => b.held)).toEqual([0, 0, 0]);
  });
});
