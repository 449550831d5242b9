import { appendAll } from '../../../shared/largeArrays.js';
import { joinVersions, type SpellingRow } from './joinedVersions.js';
import { OWN_LINE } from './lines.js';
import type { Sql } from './sql.js';

// Paths recorded under two spellings of one name (where the folder folds case or normalization)
// joined into one path, in one transaction with the mark that says it was done: a process killed
// before the commit leaves the history as it was and unmarked, so the next open joins it. Each
// group's versions are joined by joinedVersions.ts; the rows that go hand their pins and the
// restores made from them to the row kept with the same contents. Renames between two spellings
// of the path are no renames any more; the stat cache and the folders' modes follow the path.

/** Where the spelling a group goes on under is chosen: the disk's, else `newest` (the spelling recorded last). */
export type TargetSpelling = (spellings: readonly string[], newest: string) => string;

export interface SpellingJoin {
  /** Groups of file paths that are one name (two or more spellings each). */
  files: readonly (readonly string[])[];
  /** Groups of folder paths that are one name. */
  folders: readonly (readonly string[])[];
  target: TargetSpelling;
  /** The meta key marking the history joined. */
  mark: string;
  /** Called inside the transaction, after every write and before the commit. */
  beforeCommit?: () => void;
}

export interface JoinedSpellings {
  /** Each group joined: its path now and the spellings it had. */
  joined: { path: string; spellings: string[] }[];
  /** Each group left as it was, and why. */
  left: { spellings: string[]; reason: string }[];
}

/** Every path the versions name. */
export function recordedPaths(sql: Sql): string[] {
  return sql.all<{ path: string }>('SELECT DISTINCT path FROM versions').map((r) => r.path);
}

/** Every folder path whose mode was recorded. */
export function recordedFolders(sql: Sql): string[] {
  return sql.all<{ path: string }>('SELECT DISTINCT path FROM folder_modes').map((r) => r.path);
}

/** Joins the groups and marks the history, all or nothing; a history marked already is left alone. */
export function joinSpellings(sql: Sql, join: SpellingJoin): JoinedSpellings {
  return sql.immediate(() => {
    const done: JoinedSpellings = { joined: [], left: [] };
    if (sql.get('SELECT 1 AS one FROM meta WHERE key = ?', join.mark)) return done;
    for (const spellings of join.files) {
      const outcome = joinGroup(sql, [...spellings].sort(), join.target);
      if (typeof outcome === 'string') done.joined.push({ path: outcome, spellings: [...spellings].sort() });
      else done.left.push(outcome);
    }
    for (const spellings of join.folders) joinFolder(sql, spellings, join.target);
    sql.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', join.mark, String(Date.now()));
    join.beforeCommit?.();
    return done;
  });
}

/** One group joined: answers its path now, or why it was left. */
function joinGroup(sql: Sql, spellings: string[], target: TargetSpelling): string | { spellings: string[]; reason: string } {
  const rows: (SpellingRow & { line: number })[] = [];
  for (const path of spellings) {
    appendAll(
      rows,
      sql.all<SpellingRow & { line: number }>('SELECT id, snapshot_id AS snapshotId, path, hash, mode, type, target, line FROM versions WHERE path = ?', path),
    );
  }
  if (rows.some((r) => r.line !== OWN_LINE)) return { spellings, reason: 'another machine recorded some of its versions' };
  rows.sort((a, b) => a.snapshotId - b.snapshotId || a.id - b.id);
  const files = rows.filter((r) => r.hash !== null);
  const newest = (files.length > 0 ? files : rows)[(files.length > 0 ? files : rows).length - 1]?.path ?? spellings[0]!;
  const path = target(spellings, newest);
  const plan = joinVersions(rows, path);
  if ('conflict' in plan) {
    const { snapshotId, paths } = plan.conflict;
    return { spellings, reason: `${paths.join(' and ')} held different contents at snapshot ${snapshotId} (two files)` };
  }
  for (const [id, holder] of plan.dropped) dropVersion(sql, id, holder);
  for (const id of plan.kept) sql.run('UPDATE versions SET path = ? WHERE id = ?', path, id);
  for (const spelling of spellings) {
    if (spelling === path) continue;
    sql.run('UPDATE version_renames SET path = ? WHERE path = ?', path, spelling);
    sql.run('UPDATE version_renames SET from_path = ? WHERE from_path = ?', path, spelling);
  }
  sql.run('DELETE FROM version_renames WHERE path = ? AND from_path = ?', path, path);
  joinStatRows(sql, spellings, path);
  return path;
}

/** A version row removed; its pins and the restores made from it go to `holder` (the same contents), when there is one. */
export function dropVersion(sql: Sql, id: number, holder: number | undefined): void {
  if (holder !== undefined) {
    sql.run('INSERT OR IGNORE INTO pinned_versions (version_id, at) SELECT ?, at FROM pinned_versions WHERE version_id = ?', holder, id);
  }
  sql.run('DELETE FROM pinned_versions WHERE version_id = ?', id);
  sql.run('UPDATE versions SET from_version = ? WHERE from_version = ?', holder ?? null, id);
  sql.run('DELETE FROM versions WHERE id = ?', id);
}

/** The stat cache keeps one row for the path: its own, else one of the other spellings' renamed. */
function joinStatRows(sql: Sql, spellings: readonly string[], path: string): void {
  let held = sql.get('SELECT 1 AS one FROM stat_cache WHERE path = ?', path) !== undefined;
  for (const spelling of spellings) {
    if (spelling === path) continue;
    if (held) sql.run('DELETE FROM stat_cache WHERE path = ?', spelling);
    else held = sql.run('UPDATE stat_cache SET path = ? WHERE path = ?', path, spelling).changes > 0;
  }
}

/** A folder's recorded modes under one spelling: at a snapshot where two spellings have a row, the one saying it is there wins. */
function joinFolder(sql: Sql, spellings: readonly string[], target: TargetSpelling): void {
  const rows: { path: string; snapshotId: number; mode: number; gone: number }[] = [];
  for (const path of spellings) {
    appendAll(rows, sql.all<(typeof rows)[number]>('SELECT path, snapshot_id AS snapshotId, mode, gone FROM folder_modes WHERE path = ?', path));
  }
  rows.sort((a, b) => a.snapshotId - b.snapshotId || a.gone - b.gone);
  const newest = rows.filter((r) => r.gone === 0).pop()?.path ?? rows[rows.length - 1]?.path ?? spellings[0]!;
  const path = target(spellings, newest);
  for (const spelling of spellings) sql.run('DELETE FROM folder_modes WHERE path = ?', spelling);
  let last: number | undefined;
  for (const row of rows) {
    if (row.snapshotId === last) continue;
    last = row.snapshotId;
    sql.run('INSERT INTO folder_modes (path, snapshot_id, mode, gone) VALUES (?, ?, ?, ?)', path, row.snapshotId, row.mode, row.gone);
  }
}
