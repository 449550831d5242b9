import * as damagedBlobs from './damagedBlobs.js';
import * as searchIndex from './searchIndex.js';
import type { Sql } from './sql.js';

// Blobs found missing or damaged (HistoryIndex.damage, damagedBlobs.ts), until their bytes are
// filed again.

export class DamageIndex {
  constructor(private readonly sql: Sql) {}

  markDamaged(hash: string, problem: damagedBlobs.BlobDamage): void {
    damagedBlobs.markDamaged(this.sql, hash, problem, Date.now());
  }

  /** Hashes whose blob must not be trusted until its bytes are filed again. */
  damagedHashes(): string[] {
    return damagedBlobs.damagedHashes(this.sql);
  }

  /** Forgets the marks of blobs now good; the search index reads again those it found unreadable. */
  clearDamaged(hashes: readonly string[]): number {
    if (hashes.length === 0) return 0;
    return this.sql.transaction(() => {
      for (const hash of hashes) {
        if (searchIndex.blobTextState(this.sql, hash) === 'unreadable') searchIndex.unindexBlob(this.sql, hash);
      }
      return damagedBlobs.clearDamaged(this.sql, hashes);
    });
  }

  /** Paths that held, or were recorded with, the bytes of a damaged blob. */
  repairCandidates(): { path: string; hash: string; size: number }[] {
    return damagedBlobs.repairCandidates(this.sql);
  }
}
