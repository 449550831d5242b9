import type { Sql } from './sql.js';

// Which chunks each chunked blob's list names (migration 14, store/chunkList.ts). A chunk is a
// blob file with no row in blobs: it lives while any list in blobs names it, and is collected
// with the last list naming it (pruneQueries.collectBlob).

export interface ChunkRow {
  hash: string;
  size: number;
}

/** Records a list's chunks (once: a list's chunks never change, its name is the hash of their bytes). */
export function recordChunks(sql: Sql, list: string, chunks: readonly ChunkRow[]): void {
  chunks.forEach((chunk, seq) => sql.run('INSERT OR IGNORE INTO blob_chunks (list, seq, chunk, size) VALUES (?, ?, ?, ?)', list, seq, chunk.hash, chunk.size));
}

/** The distinct chunks a list names. */
export function chunksOf(sql: Sql, list: string): string[] {
  return sql.rows<[string]>('SELECT DISTINCT chunk FROM blob_chunks WHERE list = ?', list).map(([chunk]) => chunk);
}

/** A list still in the index names the chunk, or a version names the same bytes as a blob of its own: its file stays. */
export function chunkNeeded(sql: Sql, hash: string): boolean {
  return (
    sql.get('SELECT 1 FROM blob_chunks c JOIN blobs b ON b.hash = c.list WHERE c.chunk = ? LIMIT 1', hash) !== undefined ||
    sql.get('SELECT 1 FROM blobs WHERE hash = ?', hash) !== undefined
  );
}

/** Forgets a collected list's chunk rows; answers its chunks no other list (nor a blob row) needs, whose files may go. */
export function dropChunkRows(sql: Sql, list: string): string[] {
  const chunks = chunksOf(sql, list);
  if (chunks.length === 0) return [];
  sql.run('DELETE FROM blob_chunks WHERE list = ?', list);
  return chunks.filter((chunk) => !chunkNeeded(sql, chunk));
}
