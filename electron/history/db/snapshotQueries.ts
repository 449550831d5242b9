import { appendAll } from '../../../shared/largeArrays.js';
import type { SnapshotInfo } from '../../../shared/history.js';
import { SNAPSHOT_SELECT, toSnapshotInfo, type SnapshotRow } from './rows.js';
import { firstOnSegments, lineOfSnapshot, machineOfLine, ownSegments, segmentsAt, type Segment } from './lines.js';
import type { Sql } from './sql.js';
import { filesAlong } from './versionQueries.js';

// Reading snapshots: the whole list, one by id (one indexed lookup), and the few single values
// the writers need (the baseline, the latest id, the git context the latest one recorded).

/** Rows a page of snapshots reads. */
export const SNAPSHOT_PAGE_ROWS = 1000;

export function snapshots(sql: Sql): SnapshotInfo[] {
  const all: SnapshotInfo[] = [];
  for (const page of snapshotPages(sql)) appendAll(all, page);
  return all;
}

/** Every snapshot, oldest first, a page at a time (keyset on the id): a long history is never one array. */
export function* snapshotPages(sql: Sql, pageRows = SNAPSHOT_PAGE_ROWS): Generator<SnapshotInfo[]> {
  for (let after = 0; ;) {
    const rows = sql.all<SnapshotRow>(`${SNAPSHOT_SELECT} WHERE s.id > ? ORDER BY s.id LIMIT ?`, after, pageRows);
    if (rows.length > 0) yield rows.map(toSnapshotInfo);
    if (rows.length < pageRows) return;
    after = rows[rows.length - 1]!.id;
  }
}

export function snapshot(sql: Sql, id: number): SnapshotInfo | undefined {
  const row = sql.get<SnapshotRow>(`${SNAPSHOT_SELECT} WHERE s.id = ?`, id);
  return row && toSnapshotInfo(row);
}

export function baselineId(sql: Sql): number | undefined {
  return sql.get<{ id: number }>("SELECT id FROM snapshots WHERE kind = 'baseline' ORDER BY id LIMIT 1")?.id;
}

/**
 * The newest snapshot of this machine's line: what the folder was last recorded as (for a clone
 * that recorded nothing yet, the snapshot it was cloned from). Snapshots pulled from other
 * machines may have larger ids; they are on other lines.
 */
export function latestSnapshotId(sql: Sql): number | undefined {
  return firstOnSegments(ownSegments(sql), (s) => newestSnapshotOn(sql, s));
}

/** The largest snapshot id of any line (what an export of everything goes up to). */
export function lastSnapshotId(sql: Sql): number | undefined {
  return sql.get<{ id: number | null }>('SELECT MAX(id) AS id FROM snapshots')?.id ?? undefined;
}

const MARK = "kind IN ('baseline', 'checkpoint')";

/** The newest snapshot of a segment (of its line, at or before its end), of those meeting `where` (an SQL condition) when given. */
function newestSnapshotOn(sql: Sql, segment: Segment, where?: typeof MARK): number | undefined {
  const machine = machineOfLine(sql, segment.line);
  const also = where ? `AND ${where}` : '';
  // This machine's snapshots have neither column: (NULL, NULL) then ids, in snapshots_by_machine.
  return machine === null
    ? sql.get<{ id: number }>(
        `SELECT id FROM snapshots WHERE machine IS NULL AND machine_snapshot IS NULL AND id <= ? ${also} ORDER BY id DESC LIMIT 1`,
        segment.upTo,
      )?.id
    : sql.get<{ id: number }>(`SELECT id FROM snapshots WHERE machine = ? AND id <= ? ${also} ORDER BY machine_snapshot DESC LIMIT 1`, machine, segment.upTo)
        ?.id;
}

/** The snapshot just before one on its line (what undoing a snapshot restore brings back). */
export function previousSnapshotId(sql: Sql, id: number): number | undefined {
  const [first, ...rest] = segmentsAt(sql, id);
  if (!first) return undefined;
  return firstOnSegments([{ line: first.line, upTo: id - 1 }, ...rest], (s) => newestSnapshotOn(sql, s));
}

/** The branch and head recorded on the newest snapshot of this machine's line. */
export function latestSnapshotContext(sql: Sql): { snapshotId: number; branch: string | null; head: string | null } | undefined {
  const id = latestSnapshotId(sql);
  const row =
    id === undefined
      ? undefined
      : sql.get<{ id: number; branch: string | null; head: string | null }>('SELECT id, branch, head FROM snapshots WHERE id = ?', id);
  return row && { snapshotId: row.id, branch: row.branch, head: row.head };
}

/** The checkpoint or first copy before a snapshot on its line: what "changed since" counts from. */
export function previousMark(sql: Sql, id: number): { id: number; kind: 'baseline' | 'checkpoint' } | undefined {
  const [first, ...rest] = segmentsAt(sql, id);
  if (!first) return undefined;
  const mark = firstOnSegments([{ line: first.line, upTo: id - 1 }, ...rest], (s) => newestSnapshotOn(sql, s, MARK));
  return mark === undefined
    ? undefined
    : { id: mark, kind: sql.get<{ kind: 'baseline' | 'checkpoint' }>('SELECT kind FROM snapshots WHERE id = ?', mark)!.kind };
}

/** How many files a snapshot holds: paths whose version as of it, on its line, has contents. */
export function filesPresentAt(sql: Sql, id: number): number {
  return fileTotalsAlong(sql, segmentsAt(sql, id)).files;
}

/** How many files the folder holds as this machine's line has it now, and their bytes. */
export function ownFileTotals(sql: Sql): { files: number; bytes: number } {
  return fileTotalsAlong(sql, ownSegments(sql));
}

/** Files with contents at the end of the segments, and their bytes: counted in SQL on one segment, no row read. */
function fileTotalsAlong(sql: Sql, segments: readonly Segment[]): { files: number; bytes: number } {
  const [only] = segments;
  if (segments.length !== 1 || !only) {
    const files = filesAlong(sql, segments);
    return { files: files.length, bytes: files.reduce((sum, f) => sum + f.size, 0) };
  }
  const row = sql.get<{ files: number; bytes: number | null }>(
    `SELECT COUNT(*) AS files, SUM(v.size) AS bytes FROM versions v
     JOIN (SELECT MAX(id) AS id FROM versions WHERE line = ? AND snapshot_id <= ? GROUP BY path) latest ON latest.id = v.id
     WHERE v.hash IS NOT NULL`,
    only.line,
    only.upTo,
  );
  return { files: row?.files ?? 0, bytes: row?.bytes ?? 0 };
}

/** How many paths changed on a snapshot's line after an earlier snapshot of it (the first excluded). */
export function pathsChangedBetween(sql: Sql, after: number, upTo: number): number {
  const afterLine = lineOfSnapshot(sql, after);
  const paths = new Set<string>();
  for (const segment of segmentsAt(sql, upTo)) {
    const last = segment.line === afterLine && after <= segment.upTo;
    const rows = sql.rows<[string]>(
      'SELECT DISTINCT path FROM versions WHERE snapshot_id > ? AND snapshot_id <= ? AND line = ?',
      last ? after : 0,
      segment.upTo,
      segment.line,
    );
    for (const [path] of rows) paths.add(path);
    if (last) break;
  }
  return paths.size;
}
