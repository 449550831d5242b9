import type { DeletedFile } from '../../../shared/contract/values.js';
import type { EntryType, FileEntry, SnapshotChange, VersionInfo } from '../../../shared/history.js';
import { toVersionInfo, VERSION_SELECT, type VersionRow } from './rows.js';
import { firstOnSegments, ownSegments, segmentsAt, type Segment } from './lines.js';
import { lineage, renameBefore, type LineageStretch } from './renames.js';
import type { Sql } from './sql.js';
import { appendAll } from '../../../shared/largeArrays.js';
import { filePagesAlong } from './filePages.js';
import { count } from '../trace.js';

// Reading versions: one file's history, one version, the files as they stand at a snapshot, the
// files deleted last, and what one snapshot changed. Every "state of the folder" read follows one
// line of history (lines.ts): the folder's own state follows this machine's line; the state at a
// snapshot follows that snapshot's line. Each read walks an index: versions_by_path (path, line,
// snapshot_id) for a path on a line, versions by snapshot, or the primary key. A path has one
// version per snapshot, and within a line snapshot ids grow with time, so "a path's versions on a
// line by snapshot_id" is their order, read straight from the index without a sort.

const NEWEST_ON_LINE = `${VERSION_SELECT} WHERE v.path = ? AND v.line = ? AND v.snapshot_id <= ? ORDER BY v.snapshot_id DESC LIMIT 1`;
const NEWEST_CONTENTS_ON_LINE = `${VERSION_SELECT} WHERE v.path = ? AND v.line = ? AND v.snapshot_id <= ? AND v.hash IS NOT NULL ORDER BY v.snapshot_id DESC LIMIT 1`;

/** A path's newest version along the segments (its own stretch first); a deletion counts. */
function newestAlong(sql: Sql, path: string, segments: readonly Segment[], contentsOnly = false): VersionInfo | undefined {
  const row = firstOnSegments(segments, (s) => sql.get<VersionRow>(contentsOnly ? NEWEST_CONTENTS_ON_LINE : NEWEST_ON_LINE, path, s.line, s.upTo));
  return row && toVersionInfo(row);
}

/**
 * Every version of a path, of every line, oldest first (by snapshot id: the order they came here),
 * continued through renames: before the version that brought the file here come the older path's.
 */
export function versionsOf(sql: Sql, path: string): VersionInfo[] {
  const stretches = lineage(sql, path).reverse();
  return stretches.flatMap((s) =>
    sql
      .all<VersionRow>(`${VERSION_SELECT} WHERE v.path = ? AND v.snapshot_id < ? ORDER BY v.snapshot_id`, s.path, s.before ?? Number.MAX_SAFE_INTEGER)
      .map(toVersionInfo),
  );
}

/**
 * One page of a path's versions, of every line: the newest `limit` ones older than the snapshot
 * `before` (all when undefined), oldest first like versionsOf. Each line's part walks
 * versions_by_path backwards and stops; the parts are merged (there are a few lines, not many).
 */
export function versionsPage(sql: Sql, path: string, before: number | undefined, limit: number): VersionInfo[] {
  // A page that reaches the version a rename brought goes on with the older path's versions.
  const pages: VersionInfo[][] = [];
  let stretch: LineageStretch | undefined = { path, before };
  let remaining = limit;
  for (let i = 0; stretch && remaining > 0 && i <= 64; i++) {
    const page = ownPathPage(sql, stretch.path, stretch.before, remaining);
    pages.push(page);
    remaining -= page.length;
    const link: { snapshotId: number; fromPath: string } | undefined = remaining > 0 ? renameBefore(sql, stretch.path, stretch.before) : undefined;
    stretch = link && { path: link.fromPath, before: link.snapshotId };
  }
  return pages.reverse().flat();
}

function ownPathPage(sql: Sql, path: string, before: number | undefined, limit: number): VersionInfo[] {
  const rows: VersionRow[] = [];
  for (const [line] of sql.rows<[number]>('SELECT id FROM lines ORDER BY id')) {
    appendAll(
      rows,
      sql.all<VersionRow>(
        `${VERSION_SELECT} WHERE v.path = ? AND v.line = ? AND v.snapshot_id < ? ORDER BY v.snapshot_id DESC LIMIT ?`,
        path,
        line,
        before ?? Number.MAX_SAFE_INTEGER,
        limit,
      ),
    );
  }
  return rows
    .sort((a, b) => b.snapshot_id - a.snapshot_id)
    .slice(0, limit)
    .reverse()
    .map(toVersionInfo);
}

/** A path's versions on this machine's line, oldest first (the line it forked from, up to the fork, first). */
export function ownVersionsOf(sql: Sql, path: string): VersionInfo[] {
  const segments = ownSegments(sql).reverse();
  return segments.flatMap((s) =>
    sql
      .all<VersionRow>(`${VERSION_SELECT} WHERE v.path = ? AND v.line = ? AND v.snapshot_id <= ? ORDER BY v.snapshot_id`, path, s.line, s.upTo)
      .map(toVersionInfo),
  );
}

export function version(sql: Sql, versionId: number): VersionInfo | undefined {
  const row = sql.get<VersionRow>(`${VERSION_SELECT} WHERE v.id = ?`, versionId);
  return row && toVersionInfo(row);
}

/** The newest version of a path on this machine's line: what the folder holds, as recorded. */
export function latestVersion(sql: Sql, path: string): VersionInfo | undefined {
  return newestAlong(sql, path, ownSegments(sql));
}

/** The version of a path just before a snapshot on its line (what a restore in that snapshot replaced). */
export function versionBefore(sql: Sql, path: string, snapshotId: number): VersionInfo | undefined {
  const [first, ...rest] = segmentsAt(sql, snapshotId);
  if (!first) return undefined;
  return newestAlong(sql, path, [{ line: first.line, upTo: snapshotId - 1 }, ...rest]);
}

/** The id of the version a path had as of a snapshot, on its line (what restoring that snapshot brings back). */
export function versionIdAt(sql: Sql, path: string, snapshotId: number): number | undefined {
  return newestAlong(sql, path, segmentsAt(sql, snapshotId))?.versionId;
}

/** The newest version of a path with contents (not a deletion) on this machine's line. */
export function latestContents(sql: Sql, path: string): VersionInfo | undefined {
  return newestAlong(sql, path, ownSegments(sql), true);
}

/** What a change group compares a file with: its latest version's contents, mode and kind. */
export interface LatestVersion {
  hash: string | null;
  mode: number;
  size: number;
  type: EntryType | null;
  target: string | null;
}

/** The fields a change group compares with, of the newest version on this machine's line. */
export function latestVersionOf(sql: Sql, path: string): LatestVersion | undefined {
  return firstOnSegments(ownSegments(sql), (s) =>
    sql.get<LatestVersion>(
      'SELECT hash, mode, size, type, target FROM versions WHERE path = ? AND line = ? AND snapshot_id <= ? ORDER BY snapshot_id DESC LIMIT 1',
      path,
      s.line,
      s.upTo,
    ),
  );
}

type FileRow = { path: string; type: EntryType; hash: string | null; mode: number; size: number; target: string | null };

/** Each path's newest version on one segment, deletions included. */
function newestPerPath(sql: Sql, segment: Segment): FileRow[] {
  return sql.all<FileRow>(
    `SELECT v.path, v.type, v.hash, v.mode, v.size, v.target FROM versions v
     JOIN (SELECT MAX(id) AS id FROM versions WHERE line = ? AND snapshot_id <= ? GROUP BY path) latest ON latest.id = v.id
     ORDER BY v.path`,
    segment.line,
    segment.upTo,
  );
}

/** Each path's newest version along the segments (the first segment that has the path wins), deletions included. */
function newestAlongPerPath(sql: Sql, segments: readonly Segment[]): FileRow[] {
  const [only] = segments;
  if (segments.length === 1 && only) return newestPerPath(sql, only);
  const newest = new Map<string, FileRow>();
  for (const segment of segments) {
    for (const row of newestPerPath(sql, segment)) if (!newest.has(row.path)) newest.set(row.path, row);
  }
  return [...newest.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Every file as it stands at the end of the segments (a line up to a snapshot), sorted by path (filePages.ts, gathered). */
export function filesAlong(sql: Sql, segments: readonly Segment[]): FileEntry[] {
  const files: FileEntry[] = [];
  for (const page of filePagesAlong(sql, segments)) appendAll(files, page);
  count('index.fileRows', files.length);
  return files;
}

/** Every file as it stands at a snapshot, on that snapshot's line, sorted by path. */
export function filesAt(sql: Sql, at: number): FileEntry[] {
  return filesAlong(sql, segmentsAt(sql, at));
}

/** Every file as this machine's line has it now (what the folder holds, as recorded), sorted by path. */
export function ownFiles(sql: Sql): FileEntry[] {
  return filesAlong(sql, ownSegments(sql));
}

/** Paths whose newest version on this machine's line is a deletion, each with the last version that had contents. */
export function deletedFiles(sql: Sql): DeletedFile[] {
  const segments = ownSegments(sql);
  const deleted = newestAlongPerPath(sql, segments).filter((r) => r.hash === null);
  return deleted.map(({ path }) => deletedFileOf(sql, newestAlong(sql, path, segments)!, segments));
}

/** A deletion as the viewer and the CLI show it: with the last version that had contents on the same segments. */
export function deletedFileOf(sql: Sql, deletion: VersionInfo, segments: readonly Segment[] = ownSegments(sql)): DeletedFile {
  const last = newestAlong(sql, deletion.path, segments, true) ?? null;
  return {
    path: deletion.path,
    deletion,
    lastContents: last,
    versionId: deletion.versionId,
    snapshotId: deletion.snapshotId,
    deletedAt: deletion.at,
    lastVersionId: last?.versionId ?? null,
    size: last?.size ?? null,
  };
}

/**
 * What one snapshot changed: its versions, each called added, modified or deleted by the version
 * of the same path just before it on its line. A snapshot records a version only for a path that
 * changed, so this is one indexed read of the snapshot's versions (the one before each found on
 * the same line through versions_by_path), never a comparison of two file trees; only a path the
 * line's own stretch never had before is looked up on the line it forked from.
 */
export function snapshotChanges(sql: Sql, snapshotId: number): SnapshotChange[] {
  const rows = sql.all<{ id: number; path: string; hash: string | null; mode: number; size: number; type: EntryType | null; had: number | null }>(
    `SELECT v.id, v.path, v.hash, v.mode, v.size, v.type,
       (SELECT p.hash IS NOT NULL FROM versions p WHERE p.path = v.path AND p.line = v.line AND p.snapshot_id < v.snapshot_id
        ORDER BY p.snapshot_id DESC LIMIT 1) AS had
     FROM versions v WHERE v.snapshot_id = ? ORDER BY v.path`,
    snapshotId,
  );
  const forked = rows.some((r) => r.had === null) ? segmentsAt(sql, snapshotId).slice(1) : [];
  return rows.map((r) => {
    const before = r.had === null && forked.length > 0 ? newestAlong(sql, r.path, forked) : undefined;
    const had = before ? Number(before.hash !== null) : r.had;
    return {
      path: r.path,
      change: r.hash === null ? 'deleted' : had === 1 ? 'modified' : 'added',
      versionId: r.id,
      hash: r.hash,
      mode: r.mode,
      size: r.size,
      type: r.type,
    };
  });
}

/** The versions that name a blob: what a missing or corrupt blob takes with it. */
export function versionsNaming(sql: Sql, hash: string): { versionId: number; snapshotId: number; path: string }[] {
  return sql.all('SELECT id AS versionId, snapshot_id AS snapshotId, path FROM versions WHERE hash = ? ORDER BY id', hash);
}
