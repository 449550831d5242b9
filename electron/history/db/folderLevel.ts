import type { DeletedFile, FolderChild, FolderFile, FolderLevel } from '../../../shared/contract/values.js';
import type { EntryType } from '../../../shared/history.js';
import { compareNames } from '../../../shared/treeOrder.js';
import type { Sql } from './sql.js';
import { ownSegments, segmentsAt, type Segment } from './lines.js';
import { childSummaries, rebuildFolderSummaries, summariesFresh } from './folderSummaries.js';
import { baselineId } from './snapshotQueries.js';
import { deletedFileOf, version } from './versionQueries.js';

// One level of the file tree: a folder's direct children as they stand at a snapshot. The
// folder's paths are one range of versions_by_path (path >= 'dir/' AND path < 'dir0': '0' is the
// byte after '/'). Now (the viewer's tree) a level reads only its direct files: the folder's
// range less its child folders' ranges, whose figures come from the folder summaries
// (folderSummaries.ts), so the root of a 100,000-file project reads its own few files. A past
// snapshot folds the folder's whole range, as the summaries' reference does. The baseline's versions of the same range mark
// what changed since the first copy, the way the whole-tree listing lets the viewer mark it. Like
// every state query it follows one line of history (lines.ts): the snapshot's line, segment by
// segment, the first segment that has a path deciding it.

interface LatestRow {
  id: number;
  path: string;
  type: EntryType | null;
  hash: string | null;
  mode: number;
  size: number;
  target: string | null;
}

/** The byte range of versions.path under a folder ('' = everything). */
export function folderRange(folder: string): { from: string; to: string } | null {
  return folder === '' ? null : { from: `${folder}/`, to: `${folder}0` };
}

/** A byte range of versions.path: from inclusive, to exclusive (null: to the end). */
export interface PathRange {
  from: string;
  to: string | null;
}

/** The latest version (or deletion) of each path under `folder` along the segments, by path. */
export function latestUnder(sql: Sql, folder: string, segments: readonly Segment[]): LatestRow[] {
  const range = folderRange(folder);
  return latestInRanges(sql, [range ?? { from: '', to: null }], segments);
}

/** The latest version (or deletion) of each path in the ranges along the segments, by path. */
export function latestInRanges(sql: Sql, ranges: readonly PathRange[], segments: readonly Segment[]): LatestRow[] {
  const newest = new Map<string, LatestRow>();
  for (const segment of segments) {
    for (const range of ranges) {
      const bounded = range.to !== null;
      const rows = sql.all<LatestRow>(
        `SELECT v.id, v.path, v.type, v.hash, v.mode, v.size, v.target FROM versions v
         JOIN (SELECT MAX(id) AS id FROM versions WHERE path >= ? ${bounded ? 'AND path < ?' : ''} AND line = ? AND snapshot_id <= ? GROUP BY path) latest ON latest.id = v.id
         ORDER BY v.path`,
        ...(bounded ? [range.from, range.to, segment.line, segment.upTo] : [range.from, segment.line, segment.upTo]),
      );
      if (segments.length === 1 && ranges.length === 1) return rows;
      for (const row of rows) if (!newest.has(row.path)) newest.set(row.path, row);
    }
  }
  return [...newest.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * A folder's level at snapshot `at` (undefined: this machine's line as it is now). Now is
 * answered from the folder summaries (folderSummaries.ts: the child folders' figures, and the
 * folder's direct files read between its child folders' ranges); a past snapshot, or summaries
 * that cannot be made up to date, by the fold.
 */
export function folderLevel(sql: Sql, folder: string, at: number | undefined, baseline: number | undefined): FolderLevel {
  if (at === undefined && freshSummaries(sql, baseline)) return summarizedFolderLevel(sql, folder, baseline);
  return foldedFolderLevel(sql, folder, at, baseline);
}

/** Whether the summaries answer now, made again first when a write left them stale. */
function freshSummaries(sql: Sql, baseline: number | undefined): boolean {
  if (summariesFresh(sql, baseline)) return true;
  // Under the write lock (no writer changes the versions between the fold and the summaries),
  // taken only if free: another process writing (a CLI's rescan, a prune) is never waited for,
  // and a read-only store is not written; the fold answers meanwhile.
  const wait = sql.pragma('busy_timeout');
  sql.pragma('busy_timeout = 0');
  try {
    return sql.immediate(() => {
      if (!summariesFresh(sql, baselineId(sql))) rebuildFolderSummaries(sql, (segments) => latestUnder(sql, '', segments));
      return summariesFresh(sql, baseline);
    });
  } catch {
    return false;
  } finally {
    sql.pragma(`busy_timeout = ${Number(wait)}`);
  }
}

/** The ranges of a folder's own files: its range without its child folders' ranges. */
export function directFileRanges(folder: string, childFolders: readonly string[]): PathRange[] {
  const whole = folderRange(folder);
  // In SQLite's order (the bytes of UTF-8): a child's range starts at 'child/'.
  const skipped = childFolders.map((c) => ({ from: `${c}/`, to: `${c}0` })).sort((a, b) => Buffer.compare(Buffer.from(a.from), Buffer.from(b.from)));
  const ranges: PathRange[] = [];
  let from = whole?.from ?? '';
  for (const skip of skipped) {
    if (Buffer.compare(Buffer.from(from), Buffer.from(skip.from)) < 0) ranges.push({ from, to: skip.from });
    from = skip.to;
  }
  ranges.push({ from, to: whole?.to ?? null });
  return ranges;
}

/** A level now from the summaries: child folders' figures kept, direct files read. */
function summarizedFolderLevel(sql: Sql, folder: string, baseline: number | undefined): FolderLevel {
  const start = folder === '' ? 0 : folder.length + 1;
  const segments = ownSegments(sql);
  const children = childSummaries(sql, folder);
  const ranges = directFileRanges(
    folder,
    children.map((c) => c.folder),
  );
  const before = new Map<string, string | null>();
  if (baseline !== undefined) for (const row of latestInRanges(sql, ranges, segmentsAt(sql, baseline))) before.set(row.path, row.hash);
  const files: FolderFile[] = [];
  const deleted: FolderLevel['deleted'] = [];
  for (const row of latestInRanges(sql, ranges, segments)) {
    const name = row.path.slice(start);
    if (name.includes('/')) continue;
    const changed = row.hash !== null && before.get(row.path) !== row.hash;
    if (row.hash !== null && row.type !== null) files.push(fileOf(row, name, changed));
    else deleted.push(deletedFileOf(sql, version(sql, row.id)!, segments));
  }
  const folders = children.map((c) => ({ name: c.folder.slice(start), path: c.folder, files: c.files, deleted: c.deleted, changed: c.changed > 0 }));
  return sortedLevel(folder, segments[0]?.upTo ?? 0, folders, files, deleted);
}

/**
 * Every file deleted now (the newest version of its path a deletion), as deletedFiles answers,
 * from the summaries: only folders holding a deletion are read, each its direct files. Undefined
 * when the summaries cannot be made up to date (the caller folds).
 */
export function summarizedDeletedFiles(sql: Sql, baseline: number | undefined): DeletedFile[] | undefined {
  if (!freshSummaries(sql, baseline)) return undefined;
  const segments = ownSegments(sql);
  const deleted: DeletedFile[] = [];
  for (const queue = ['']; queue.length > 0;) {
    const folder = queue.pop()!;
    const start = folder === '' ? 0 : folder.length + 1;
    const children = childSummaries(sql, folder);
    const ranges = directFileRanges(
      folder,
      children.map((c) => c.folder),
    );
    for (const row of latestInRanges(sql, ranges, segments)) {
      if (row.hash === null && !row.path.slice(start).includes('/')) deleted.push(deletedFileOf(sql, version(sql, row.id)!, segments));
    }
    for (const child of children) if (child.deleted > 0) queue.push(child.folder);
  }
  // In the order the fold gives: SQLite's (bytes) along one segment, JavaScript's along several.
  return segments.length === 1
    ? deleted.sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)))
    : deleted.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function fileOf(row: LatestRow, name: string, changed: boolean): FolderFile {
  const entry: FolderFile = { name, path: row.path, type: row.type!, hash: row.hash!, mode: row.mode, size: row.size, changed };
  if (row.type === 'symlink' && row.target !== null) entry.target = row.target;
  return entry;
}

function sortedLevel(folder: string, snapshotId: number, folders: FolderChild[], files: FolderFile[], deleted: FolderLevel['deleted']): FolderLevel {
  const byName = (a: { name: string }, b: { name: string }) => compareNames(a.name, b.name);
  return {
    folder,
    snapshotId,
    folders: folders.sort(byName),
    files: files.sort(byName),
    deleted: deleted.sort((a, b) => compareNames(a.path, b.path)),
  };
}

/** A folder's level by the fold of every newest version under it: a past snapshot's, and the reference the summaries are checked against. */
export function foldedFolderLevel(sql: Sql, folder: string, at: number | undefined, baseline: number | undefined): FolderLevel {
  const start = folder === '' ? 0 : folder.length + 1;
  const segments = at === undefined ? ownSegments(sql) : segmentsAt(sql, at);
  const before = new Map<string, string | null>();
  if (baseline !== undefined) for (const row of latestUnder(sql, folder, segmentsAt(sql, baseline))) before.set(row.path, row.hash);

  const folders = new Map<string, FolderChild>();
  const files: FolderFile[] = [];
  const deleted: FolderLevel['deleted'] = [];
  for (const row of latestUnder(sql, folder, segments)) {
    const rest = row.path.slice(start);
    const slash = rest.indexOf('/');
    const changed = row.hash !== null && before.get(row.path) !== row.hash;
    if (slash >= 0) {
      const name = rest.slice(0, slash);
      let child = folders.get(name);
      if (!child) {
        child = { name, path: row.path.slice(0, start + slash), files: 0, deleted: 0, changed: false };
        folders.set(name, child);
      }
      if (row.hash === null) child.deleted++;
      else child.files++;
      if (changed) child.changed = true;
    } else if (row.hash !== null && row.type !== null) {
      files.push(fileOf(row, rest, changed));
    } else {
      deleted.push(deletedFileOf(sql, version(sql, row.id)!, segments));
    }
  }
  return sortedLevel(folder, at ?? segments[0]?.upTo ?? 0, [...folders.values()], files, deleted);
}
