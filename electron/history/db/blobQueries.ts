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

export function blobTotals(sql: Sql): { blobs: number; bytes: number } {
  return sql.get<{ blobs: number; bytes: number }>('SELECT COUNT(*) AS blobs, COALESCE(SUM(size), 0) AS bytes FROM blobs')!;
}

/** Snapshots, versions, and the bytes every version would take if each were stored apart. */
export function historyTotals(sql: Sql): { snapshots: number; versions: number; logicalBytes: number } {
  return sql.get(
    `SELECT (SELECT COUNT(*) FROM snapshots) AS snapshots, COUNT(*) AS versions,
            COALESCE(SUM(CASE WHEN hash IS NOT NULL THEN size END), 0) AS logicalBytes
     FROM versions`,
  )!;
}

export function blobSize(sql: Sql, hash: string): number | undefined {
  return sql.get<{ size: number }>('SELECT size FROM blobs WHERE hash = ?', hash)?.size;
}
