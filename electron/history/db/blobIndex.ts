import * as blobQueries from './blobQueries.js';
import type { Sql } from './sql.js';

// The blobs the index names and their totals (HistoryIndex.blobRecords, blobQueries.ts).

export class BlobIndex {
  constructor(private readonly sql: Sql) {}

  blobs(): { hash: string; size: number }[] {
    return blobQueries.blobs(this.sql);
  }

  /** Blobs a writer may take as stored without looking at the disk (neither marked for collection nor damaged). */
  trustedHashes(): string[] {
    return blobQueries.trustedHashes(this.sql);
  }

  /** Records the bytes on disk of blobs placed outside a snapshot's commit (a repair from the folder). */
  recordStoredSizes(sizes: readonly { hash: string; stored: number }[]): void {
    this.sql.transaction(() => {
      for (const { hash, stored } of sizes) blobQueries.recordStoredSize(this.sql, hash, stored);
    });
  }

  blobTotals(): blobQueries.BlobTotals {
    return blobQueries.blobTotals(this.sql);
  }

  historyTotals(): blobQueries.HistoryTotals {
    return blobQueries.historyTotals(this.sql);
  }

  blobSize(hash: string): number | undefined {
    return blobQueries.blobSize(this.sql, hash);
  }
}
