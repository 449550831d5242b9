import { recordStoredSize } from './blobQueries.js';
import type { Sql } from './sql.js';

// What compaction (compact/) reads and writes: the blobs that may still be raw where compression
// could pay (a size in the codec's range, a stored size not known or equal to the raw size), not
// yet found not worth compressing (`blobs_kept_raw`), neither marked for collection by a prune
// (its file may go at any time) nor found damaged (verify --repair's to write again). Taken in
// hash order after a cursor, so a run goes forward over blobs it left alone (absent, damaged);
// what a run settled leaves the list, so the next run goes on from where a stopped one was.

/** The sizes compression is tried on: longer than `from`, at most `upTo` (codec/blobCodec.ts). */
export interface CompressRange {
  from: number;
  upTo: number;
}

const STILL_RAW = `(b.stored_size IS NULL OR b.stored_size = b.size)
    AND NOT EXISTS (SELECT 1 FROM blobs_kept_raw k WHERE k.hash = b.hash)
    AND NOT EXISTS (SELECT 1 FROM blob_marks m WHERE m.hash = b.hash)
    AND NOT EXISTS (SELECT 1 FROM damaged_blobs d WHERE d.hash = b.hash)`;

const CANDIDATES = `FROM blobs b WHERE b.size > ? AND b.size <= ? AND ${STILL_RAW}`;

/** Up to `limit` blobs to look at, in hash order after `after`. */
export function compactCandidates(sql: Sql, range: CompressRange, after: string, limit: number): { hash: string; size: number }[] {
  return sql.all(`SELECT b.hash, b.size ${CANDIDATES} AND b.hash > ? ORDER BY b.hash LIMIT ?`, range.from, range.upTo, after, limit);
}

/** How many blobs, and raw bytes, compaction would look at. */
export function compactTotals(sql: Sql, range: CompressRange): { blobs: number; bytes: number } {
  return sql.get<{ blobs: number; bytes: number }>(`SELECT COUNT(*) AS blobs, COALESCE(SUM(b.size), 0) AS bytes ${CANDIDATES}`, range.from, range.upTo)!;
}

/**
 * The blob is still one to compact: named, still raw as far as the index knows, not found not worth
 * compressing, not marked for collection, not found damaged. A run in another process (or another
 * engine) that settled it first took it off the list: this run then leaves it, and does not count it.
 */
export function stillCompactable(sql: Sql, hash: string): boolean {
  return sql.get(`SELECT 1 FROM blobs b WHERE b.hash = ? AND ${STILL_RAW}`, hash) !== undefined;
}

/** Records a blob compaction found not worth compressing: raw on disk, and never tried again. */
export function recordKeptRaw(sql: Sql, hash: string): void {
  sql.run('UPDATE blobs SET stored_size = size WHERE hash = ?', hash);
  sql.run('INSERT OR IGNORE INTO blobs_kept_raw (hash) VALUES (?)', hash);
}

/** How one blob was settled: its bytes on disk now, and whether it was found not worth compressing. */
export interface CompactSettled {
  stored: number;
  keptRaw: boolean;
}

/**
 * Settles a batch in one short write transaction: each hash still to compact is passed to
 * `settle` (which writes its file: inside the transaction, so a prune collecting the blob comes
 * before, and the blob is left alone, or after, and removes whichever file it finds) and its
 * stored size recorded. Answers the hashes settled.
 */
export function settleCompaction(sql: Sql, hashes: readonly string[], settle: (hash: string) => CompactSettled | undefined): string[] {
  return sql.immediate(() => {
    const settled: string[] = [];
    for (const hash of hashes) {
      if (!stillCompactable(sql, hash)) continue;
      const done = settle(hash);
      if (!done) continue;
      if (done.keptRaw) recordKeptRaw(sql, hash);
      else recordStoredSize(sql, hash, done.stored);
      settled.push(hash);
    }
    return settled;
  });
}
