import type { SnapshotInfo } from '../../../shared/history.js';
import { SNAPSHOT_SELECT, toSnapshotInfo, type SnapshotRow } from './rows.js';
import type { Sql } from './sql.js';

// Reading snapshots: the whole list, one by id (one indexed lookup), and the few single values
// the writers need (the baseline, the latest id, the git context the latest one recorded).

export function snapshots(sql: Sql): SnapshotInfo[] {
  return sql.all<SnapshotRow>(`${SNAPSHOT_SELECT} ORDER BY s.id`).map(toSnapshotInfo);
}

export function snapshot(sql: Sql, id: number): SnapshotInfo | undefined {
  const row = sql.get<SnapshotRow>(`${SNAPSHOT_SELECT} WHERE s.id = ?`, id);
  return row && toSnapshotInfo(row);
}

export function baselineId(sql: Sql): number | undefined {
  return sql.get<{ id: number }>("SELECT id FROM snapshots WHERE kind = 'baseline' ORDER BY id LIMIT 1")?.id;
}

export function latestSnapshotId(sql: Sql): number | undefined {
  return sql.get<{ id: number | null }>('SELECT MAX(id) AS id FROM snapshots')?.id ?? undefined;
}

/** The snapshot just before one (what undoing a snapshot restore brings back). */
export function previousSnapshotId(sql: Sql, id: number): number | undefined {
  return sql.get<{ id: number | null }>('SELECT MAX(id) AS id FROM snapshots WHERE id < ?', id)?.id ?? undefined;
}

/** The branch and head recorded on the latest snapshot. */
export function latestSnapshotContext(sql: Sql): { snapshotId: number; branch: string | null; head: string | null } | undefined {
  const row = sql.get<{ id: number; branch: string | null; head: string | null }>('SELECT id, branch, head FROM snapshots ORDER BY id DESC LIMIT 1');
  return row && { snapshotId: row.id, branch: row.branch, head: row.head };
}

/** The checkpoint or first copy before a snapshot: what "changed since" counts from. */
export function previousMark(sql: Sql, id: number): { id: number; kind: 'baseline' | 'checkpoint' } | undefined {
  return sql.get<{ id: number; kind: 'baseline' | 'checkpoint' }>(
    "SELECT id, kind FROM snapshots WHERE id < ? AND kind IN ('baseline', 'checkpoint') ORDER BY id DESC LIMIT 1",
    id,
  );
}

/** How many files a snapshot holds: paths whose version as of it has contents. */
export function filesPresentAt(sql: Sql, id: number): number {
  return (
    sql.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM versions v JOIN (SELECT MAX(id) AS id FROM versions WHERE snapshot_id <= ? GROUP BY path) latest ON latest.id = v.id
       WHERE v.hash IS NOT NULL`,
      id,
    )?.n ?? 0
  );
}

/** How many paths changed after one snapshot up to another (both by id; the first excluded). */
export function pathsChangedBetween(sql: Sql, after: number, upTo: number): number {
  return sql.get<{ n: number }>('SELECT COUNT(DISTINCT path) AS n FROM versions WHERE snapshot_id > ? AND snapshot_id <= ?', after, upTo)?.n ?? 0;
}
