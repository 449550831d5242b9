import type { Sql } from './sql.js';

// The blobs the index names, and the totals the store's statistics are made of.

/** The blobs versions name (a blob marked unreferenced by a prune may already be gone: not listed). */
export function blobs(sql: Sql): { hash: string; size: number }[] {
  return sql.all('SELECT hash, size FROM blobs WHERE hash NOT IN (SELECT hash FROM blob_marks) ORDER BY hash');
}

/**
 * The blobs a writer may trust to be on disk without looking, in one query: named by the index
 * (a version's blob, or a chunk of a list), neither marked for collection by a prune (its file may go at any time) nor found damaged (its
 * bytes must be written again).
 */
export function trustedHashes(sql: Sql): string[] {
  // With them the chunks of such lists (a chunk of a marked or damaged list only is not trusted).
  return sql
    .rows<[string]>(
      `SELECT hash FROM blobs WHERE hash NOT IN (SELECT hash FROM blob_marks) AND hash NOT IN (SELECT hash FROM damaged_blobs)
       UNION
       SELECT c.chunk FROM blob_chunks c
       WHERE c.list NOT IN (SELECT hash FROM blob_marks) AND c.list NOT IN (SELECT hash FROM damaged_blobs) AND c.chunk NOT IN (SELECT hash FROM damaged_blobs)`,
    )
    .map(([hash]) => hash);
}

/** A blob's bytes on disk: its file's size once known (stored_size), its raw size until then. */
export const STORED_BYTES = 'COALESCE(stored_size, size)';

/**
 * Every blob row: how many, their bytes as the files are (`bytes`), their bytes on disk
 * (`storedBytes`), and how many are known compressed, known raw, or not looked at yet.
 */
export function blobTotals(sql: Sql): BlobTotals {
  return sql.get<BlobTotals>(
    `SELECT COUNT(*) AS blobs, COALESCE(SUM(size), 0) AS bytes, COALESCE(SUM(${STORED_BYTES}), 0) AS storedBytes,
            COUNT(CASE WHEN stored_size < size THEN 1 END) AS compressed,
            COUNT(CASE WHEN stored_size = size THEN 1 END) AS raw,
            COUNT(CASE WHEN stored_size IS NULL THEN 1 END) AS unknown
     FROM blobs`,
  )!;
}

export interface BlobTotals {
  blobs: number;
  bytes: number;
  storedBytes: number;
  compressed: number;
  raw: number;
  unknown: number;
}

/** Snapshots, versions (those naming bytes apart: not deletions), and the bytes every version would take if each were stored apart. */
export function historyTotals(sql: Sql): HistoryTotals {
  return sql.get(
    `SELECT (SELECT COUNT(*) FROM snapshots) AS snapshots, COUNT(*) AS versions,
            COUNT(hash) AS versionsWithBytes,
            COALESCE(SUM(CASE WHEN hash IS NOT NULL THEN size END), 0) AS logicalBytes
     FROM versions`,
  )!;
}

export interface HistoryTotals {
  snapshots: number;
  versions: number;
  versionsWithBytes: number;
  logicalBytes: number;
}

/** Records a blob's bytes on disk, its file's size (a writer placed it, or compaction measured it). */
export function recordStoredSize(sql: Sql, hash: string, stored: number): void {
  sql.run('UPDATE blobs SET stored_size = ? WHERE hash = ?', stored, hash);
}

export function blobSize(sql: Sql, hash: string): number | undefined {
  return sql.get<{ size: number }>('SELECT size FROM blobs WHERE hash = ?', hash)?.size;
}
