import type { EntryType } from '../../../shared/history.js';
import type { StatStamp } from '../statStamp.js';
import { StatTable, type CachedStatRow } from '../statTable.js';
import { count } from '../trace.js';
import { ownSegments } from './lines.js';
import type { Sql } from './sql.js';

// The stat cache: for every tracked path, the stat it had when its contents were last recorded,
// so a rescan hashes only what a stat says may have changed.

export interface StatRow extends StatStamp {
  path: string;
  type: EntryType;
  hash: string;
  target?: string | null;
}

export function writeStats(sql: Sql, stats: readonly StatRow[], removed: readonly string[] = []): void {
  sql.transaction(() => {
    for (const row of stats) {
      sql.run(
        `INSERT INTO stat_cache (path, type, size, mode, mtime_ns, ctime_ns, ino, hash, target)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(path) DO UPDATE SET type = excluded.type, size = excluded.size, mode = excluded.mode,
           mtime_ns = excluded.mtime_ns, ctime_ns = excluded.ctime_ns, ino = excluded.ino,
           hash = excluded.hash, target = excluded.target`,
        row.path,
        row.type,
        row.size,
        row.mode,
        row.mtimeNs,
        row.ctimeNs,
        row.ino,
        row.hash,
        row.target ?? null,
      );
    }
    for (const path of removed) sql.run('DELETE FROM stat_cache WHERE path = ?', path);
  });
}

// The stamps split in SQL (floor division, as the kernel's timespec has it also before 1970), the
// inode as a number where every decimal of up to 15 digits is exact, the target for links only:
// a row costs JavaScript its path string and nothing else that outlives the row.
const TABLE_ROWS = `
  SELECT path, type = 'symlink', size, mode,
    (m - ((m % 1000000000) + 1000000000) % 1000000000) / 1000000000, ((m % 1000000000) + 1000000000) % 1000000000,
    (c - ((c % 1000000000) + 1000000000) % 1000000000) / 1000000000, ((c % 1000000000) + 1000000000) % 1000000000,
    CASE WHEN length(ino) <= 15 THEN CAST(ino AS INTEGER) ELSE ino END,
    CASE WHEN type = 'symlink' THEN target END
  FROM (SELECT path, type, size, mode, CAST(mtime_ns AS INTEGER) AS m, CAST(ctime_ns AS INTEGER) AS c, ino, target FROM stat_cache)`;

/** The whole stat cache in one query, stepped row by row into its compact form (statTable.ts). */
export function statTable(sql: Sql): StatTable {
  const table = new StatTable();
  count('statCache.reads');
  for (const row of sql.rows<CachedStatRow>(TABLE_ROWS)) table.add(row);
  count('statCache.rows', table.count);
  return table;
}

/** How many paths are tracked now. */
export function trackedFiles(sql: Sql): number {
  return sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM stat_cache')?.n ?? 0;
}

/** One path's row, with the hash it was recorded with. */
export function cachedStat(sql: Sql, path: string): StatRow | undefined {
  const row = sql.get<{
    path: string;
    type: EntryType;
    size: number;
    mode: number;
    mtime_ns: string;
    ctime_ns: string;
    ino: string;
    hash: string;
    target: string | null;
  }>('SELECT path, type, size, mode, mtime_ns, ctime_ns, ino, hash, target FROM stat_cache WHERE path = ?', path);
  return (
    row && {
      path: row.path,
      type: row.type,
      size: row.size,
      mode: row.mode,
      mtimeNs: row.mtime_ns,
      ctimeNs: row.ctime_ns,
      ino: row.ino,
      hash: row.hash,
      target: row.target,
    }
  );
}

/**
 * Paths with a version on this machine's line newer than `afterVersion` that have no stat row:
 * what the history says the folder may hold that no scan has looked at yet (an import or a clone
 * writes versions, never stat rows). Only versions past the mark are read (the primary key's
 * range), so a rescan after a rescan reads none.
 */
export function uncachedPaths(sql: Sql, afterVersion: number): string[] {
  const paths = new Set<string>();
  for (const segment of ownSegments(sql)) {
    const rows = sql.rows<[string]>(
      `SELECT DISTINCT v.path FROM versions v
       WHERE v.id > ? AND v.line = ? AND v.snapshot_id <= ? AND NOT EXISTS (SELECT 1 FROM stat_cache s WHERE s.path = v.path)`,
      afterVersion,
      segment.line,
      segment.upTo,
    );
    for (const [path] of rows) paths.add(path);
  }
  return [...paths];
}

/** The newest version id (0 when there is none): the mark a rescan that looked at everything leaves. */
export function newestVersionId(sql: Sql): number {
  return sql.get<{ id: number | null }>('SELECT MAX(id) AS id FROM versions')?.id ?? 0;
}
