import * as compactQueries from './compactQueries.js';
import type { Sql } from './sql.js';

// What compaction asks of the index (HistoryIndex.compaction, compactQueries.ts): the raw blobs
// where compression may pay, their totals, and a batch settled in one transaction.

export class CompactIndex {
  constructor(private readonly sql: Sql) {}

  compactCandidates(range: compactQueries.CompressRange, after: string, limit: number): { hash: string; size: number }[] {
    return compactQueries.compactCandidates(this.sql, range, after, limit);
  }

  compactTotals(range: compactQueries.CompressRange): { blobs: number; bytes: number } {
    return compactQueries.compactTotals(this.sql, range);
  }

  settleCompaction(hashes: readonly string[], settle: (hash: string) => compactQueries.CompactSettled | undefined): string[] {
    return compactQueries.settleCompaction(this.sql, hashes, settle);
  }
}
