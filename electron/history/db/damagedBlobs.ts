import type { Sql } from './sql.js';

// Blobs found missing or damaged (by a reader or by verify), until the right bytes are filed
// again. Whatever decides that a blob "is already stored" must leave these out: the copy path
// rewrites them when their bytes come by.

export type BlobDamage = 'missing' | 'corrupt';

export function markDamaged(sql: Sql, hash: string, problem: BlobDamage, at: number): void {
  sql.run('INSERT INTO damaged_blobs (hash, problem, found_at) VALUES (?, ?, ?) ON CONFLICT(hash) DO UPDATE SET problem = excluded.problem', hash, problem, at);
}

/** The hashes found missing or damaged and not repaired since. */
export function damagedHashes(sql: Sql): string[] {
  return sql.rows<[string]>('SELECT hash FROM damaged_blobs ORDER BY hash').map(([hash]) => hash);
}

/** Forgets the marks of blobs now known good (rewritten, or found intact); returns how many there were. */
export function clearDamaged(sql: Sql, hashes: readonly string[]): number {
  if (hashes.length === 0) return 0;
  return sql.transaction(() => hashes.reduce((n, hash) => n + sql.run('DELETE FROM damaged_blobs WHERE hash = ?', hash).changes, 0));
}

/**
 * Where the right bytes of a damaged blob may still be: the paths the folder held with that hash
 * at the last scan (stat cache) and the paths of the versions naming it.
 */
export function repairCandidates(sql: Sql): { path: string; hash: string; size: number }[] {
  return sql.all(
    `SELECT s.path, s.hash, s.size FROM stat_cache s JOIN damaged_blobs d ON d.hash = s.hash
     UNION
     SELECT v.path, v.hash, v.size FROM damaged_blobs d JOIN versions v ON v.hash = d.hash
     ORDER BY 1`,
  );
}
