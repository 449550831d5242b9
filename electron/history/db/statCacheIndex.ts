import * as statCache from './statCache.js';
import type { Sql } from './sql.js';
import type { StatTable } from '../statTable.js';

// The stat cache (HistoryIndex.statCache, statCache.ts): the rows a record writes, and what a
// rescan compares the disk with.

export class StatCacheIndex {
  constructor(private readonly sql: Sql) {}

  writeStats(stats: readonly statCache.StatRow[], removed: readonly string[] = []): void {
    statCache.writeStats(this.sql, stats, removed);
  }

  /** The whole stat cache, in the compact form a rescan compares with (one query). */
  statTable(): StatTable {
    return statCache.statTable(this.sql);
  }

  /** One path's stat cache row, with the hash it was recorded with. */
  cachedStat(path: string): statCache.StatRow | undefined {
    return statCache.cachedStat(this.sql, path);
  }

  trackedFiles(): number {
    return statCache.trackedFiles(this.sql);
  }

  /** Paths of this machine's line, in versions newer than `afterVersion`, without a stat row (statCache.ts). */
  uncachedPaths(afterVersion: number): string[] {
    return statCache.uncachedPaths(this.sql, afterVersion);
  }

  newestVersionId(): number {
    return statCache.newestVersionId(this.sql);
  }
}
