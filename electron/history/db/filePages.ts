import type { EntryType, FileEntry } from '../../../shared/history.js';
import { ownSegments, segmentsAt, type Segment } from './lines.js';
import type { Sql } from './sql.js';

// The files as they stand at the end of a line's segments, a page at a time in path order, so a
// listing of 500,000 files never holds them in one array: each page is one range of
// versions_by_path after the last path of the page before (keyset), read again from the index.

/** Rows a page of files reads from each segment. */
export const FILE_PAGE_ROWS = 1000;

type FileRow = { path: string; type: EntryType; hash: string | null; mode: number; size: number; target: string | null };

// Each path's newest version on one segment, deletions included, for the paths after `path > ?`.
const NEWEST_PAGE = `SELECT v.path, v.type, v.hash, v.mode, v.size, v.target FROM versions v
  JOIN (SELECT MAX(id) AS id FROM versions WHERE path > ? AND line = ? AND snapshot_id <= ? GROUP BY path ORDER BY path LIMIT ?) latest
    ON latest.id = v.id
  ORDER BY v.path`;

/** SQLite's order of paths (BINARY: the UTF-8 bytes), which the pages follow. */
export function compareStoredPaths(a: string, b: string): number {
  return a === b ? 0 : Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Every file at the end of the segments (the first segment that has a path wins; a deletion hides it), page by page. */
export function* filePagesAlong(sql: Sql, segments: readonly Segment[], pageRows = FILE_PAGE_ROWS): Generator<FileEntry[]> {
  let after = '';
  for (;;) {
    const pages = segments.map((s) => sql.all<FileRow>(NEWEST_PAGE, after, s.line, s.upTo, pageRows));
    const end = pageEnd(pages, pageRows);
    const files = firstPerPath(pages, end)
      .filter((row) => row.hash !== null)
      .map(fileEntry);
    if (files.length > 0) yield files;
    if (end === undefined) return;
    after = end;
  }
}

/** Every file as this machine's line has it now, page by page. */
export function ownFilePages(sql: Sql): Generator<FileEntry[]> {
  return filePagesAlong(sql, ownSegments(sql));
}

/** Every file at a snapshot, on that snapshot's line, page by page. */
export function filePagesAt(sql: Sql, snapshotId: number): Generator<FileEntry[]> {
  return filePagesAlong(sql, segmentsAt(sql, snapshotId));
}

/**
 * The last path every segment has been read up to: the smallest last path of a full page (past
 * it a segment's next page may hold paths not read yet); undefined when every segment is done.
 */
function pageEnd(pages: readonly FileRow[][], pageRows: number): string | undefined {
  let end: string | undefined;
  for (const page of pages) {
    if (page.length < pageRows) continue;
    const last = page[page.length - 1]!.path;
    if (end === undefined || compareStoredPaths(last, end) < 0) end = last;
  }
  return end;
}

/** The rows up to `end`, each path's from the first segment that has it, in path order. */
function firstPerPath(pages: readonly FileRow[][], end: string | undefined): FileRow[] {
  const within = (row: FileRow) => end === undefined || compareStoredPaths(row.path, end) <= 0;
  const [only] = pages;
  if (pages.length === 1 && only) return only.filter(within);
  const newest = new Map<string, FileRow>();
  for (const page of pages) for (const row of page) if (within(row) && !newest.has(row.path)) newest.set(row.path, row);
  return [...newest.values()].sort((a, b) => compareStoredPaths(a.path, b.path));
}

function fileEntry(r: FileRow): FileEntry {
  return r.type === 'symlink' && r.target !== null
    ? { path: r.path, type: r.type, hash: r.hash!, mode: r.mode, size: r.size, target: r.target }
    : { path: r.path, type: r.type, hash: r.hash!, mode: r.mode, size: r.size };
}
