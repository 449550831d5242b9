import type { Sql } from './sql.js';

// The search index (migration 5): search_blobs says which blobs the build has looked at and what
// it found, search_text holds the trigram index of the text ones (contentless, rowid = the
// search_blobs id). A blob is indexed once however many versions name it.

export type BlobTextState = 'text' | 'binary' | 'encoding' | 'unreadable';

export interface IndexedBlob {
  hash: string;
  state: BlobTextState;
  bytes: number;
  /** The decoded text, for state 'text'. */
  text?: string;
}

/** Blobs within the size limit the build has not looked at yet, in hash order after `after`. */
export function unindexedBlobs(sql: Sql, after: string, maxSize: number, limit: number): { hash: string; size: number }[] {
  return sql.all(
    `SELECT b.hash, b.size FROM blobs b
     WHERE b.hash > ? AND b.size <= ? AND NOT EXISTS (SELECT 1 FROM search_blobs s WHERE s.hash = b.hash)
     ORDER BY b.hash LIMIT ?`,
    after,
    maxSize,
    limit,
  );
}

/**
 * Records one batch of the build in one transaction. A blob another process indexed meanwhile is
 * left as it is, and one no longer in the store (removed since it was read) is not recorded.
 * `stop`, asked after each blob, ends the batch early (what was recorded is committed); answers
 * how many of the batch's blobs were gone through, and how many of them were added.
 */
export function recordIndexed(sql: Sql, batch: readonly IndexedBlob[], stop: () => boolean = () => false): { recorded: number; added: number } {
  return sql.immediate(() => {
    let added = 0;
    let recorded = 0;
    for (const blob of batch) {
      if (recorded > 0 && stop()) break;
      recorded++;
      const row = sql.run(
        `INSERT OR IGNORE INTO search_blobs (hash, state, bytes) SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM blobs WHERE hash = ?)`,
        blob.hash,
        blob.state,
        blob.bytes,
        blob.hash,
      );
      if (row.changes === 0) continue;
      added++;
      if (blob.state === 'text') sql.run('INSERT INTO search_text (rowid, body) VALUES (?, ?)', row.lastInsertRowid, blob.text ?? '');
    }
    return { recorded, added };
  });
}

/**
 * Takes a blob out of the index. Call it inside the transaction that stops naming the blob, so the
 * index never names a blob the store no longer has.
 */
export function unindexBlob(sql: Sql, hash: string): void {
  const row = sql.get<{ id: number; state: BlobTextState }>('SELECT id, state FROM search_blobs WHERE hash = ?', hash);
  if (!row) return;
  if (row.state === 'text') sql.run('DELETE FROM search_text WHERE rowid = ?', row.id);
  sql.run('DELETE FROM search_blobs WHERE id = ?', row.id);
}

/**
 * The indexed blobs that may contain `literal` (at least 3 characters), case ignored: those that
 * hold every trigram of it (the index keeps no positions, so the caller reads each to be sure).
 */
export function blobsContaining(sql: Sql, literal: string): string[] {
  return sql
    .rows<[string]>('SELECT s.hash FROM search_text t JOIN search_blobs s ON s.id = t.rowid WHERE search_text MATCH ?', trigramQuery(literal))
    .map((r) => r[0]);
}

/** Trigrams asked of the index for one literal at most: past it, every third one and the last. */
export const MAX_TRIGRAMS = 16;

/**
 * The literal's trigrams, ANDed: `"sta" AND "tat" AND ...`. Every one of them while there are at
 * most MAX_TRIGRAMS (the index keeps no positions, so each one left out lets in blobs that hold
 * the others apart: "static int" asked by every third trigram also named the files holding
 * "static unsigned int", 2,599 blobs where 1,592 hold them all, each one read to be sure); past
 * that every third one and the last, which cover the literal.
 */
export function trigramQuery(literal: string): string {
  const chars = [...literal];
  const step = chars.length - 2 <= MAX_TRIGRAMS ? 1 : 3;
  const starts = new Set<number>();
  for (let i = 0; i + 3 <= chars.length; i += step) starts.add(i);
  starts.add(chars.length - 3);
  const trigrams = new Set([...starts].map((i) => chars.slice(i, i + 3).join('')));
  return [...trigrams].map((trigram) => `"${trigram.replace(/"/g, '""')}"`).join(' AND ');
}

/** What the build found a blob to be; undefined when it has not looked at it yet. */
export function blobTextState(sql: Sql, hash: string): BlobTextState | undefined {
  return sql.get<{ state: BlobTextState }>('SELECT state FROM search_blobs WHERE hash = ?', hash)?.state;
}

export interface SearchIndexTotals {
  indexedBlobs: number;
  totalBlobs: number;
  textBytes: number;
  indexBytes: number;
}

/**
 * How far the build is: blobs looked at, of those within the size limit. Two counts of one table
 * each, no join (a search asks this every time): search_blobs only names blobs the store has (a
 * row is added only for a blob in blobs, and leaves in the transaction that removes the blob), and
 * its bytes are the blob's size.
 */
export function searchProgress(sql: Sql, maxSize: number): { indexedBlobs: number; totalBlobs: number } {
  return sql.get<{ indexedBlobs: number; totalBlobs: number }>(
    `SELECT (SELECT COUNT(*) FROM search_blobs WHERE bytes <= ?) AS indexedBlobs,
            (SELECT COUNT(*) FROM blobs WHERE size <= ?) AS totalBlobs`,
    maxSize,
    maxSize,
  )!;
}

/** How far the build is, and what the index costs on disk against the text it covers. */
export function searchIndexTotals(sql: Sql, maxSize: number): SearchIndexTotals {
  const text = sql.get<{ bytes: number }>("SELECT COALESCE(SUM(bytes), 0) AS bytes FROM search_blobs WHERE state = 'text'")!;
  // The pages of every table FTS5 keeps for search_text (its data, index, doc sizes and config).
  const pages = sql.get<{ bytes: number }>("SELECT COALESCE(SUM(pgsize), 0) AS bytes FROM dbstat WHERE name LIKE 'search\\_text\\_%' ESCAPE '\\'")!;
  return { ...searchProgress(sql, maxSize), textBytes: text.bytes, indexBytes: pages.bytes };
}
