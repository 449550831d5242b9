import * as searchIndex from './searchIndex.js';
import type { Sql } from './sql.js';
import type { WriteGate } from './writeGate.js';

// The search index as the history process's connection sees it (HistoryIndex.search,
// searchIndex.ts): the blobs its build has not reached, a batch recorded, a blob taken out, the
// blobs naming a literal, and the build's progress and totals.

export class TextSearchIndex {
  constructor(private readonly sql: Sql) {}

  unindexedBlobs(after: string, maxSize: number, limit: number): { hash: string; size: number }[] {
    return searchIndex.unindexedBlobs(this.sql, after, maxSize, limit);
  }

  /** One batch of the index build, in one transaction (searchIndex.recordIndexed). */
  recordIndexed(batch: readonly searchIndex.IndexedBlob[], stop?: () => boolean): { recorded: number; added: number } {
    return searchIndex.recordIndexed(this.sql, batch, stop);
  }

  /**
   * While a search index build writes to this history from a worker thread, this connection's
   * transactions take turns with it through `gate` (writeGate.ts); undefined when it stopped.
   */
  shareWrites(gate: WriteGate | undefined): void {
    this.sql.gate = gate;
  }

  /** Takes a blob out of the search index: call it inside the transaction that stops naming the blob. */
  unindexBlob(hash: string): void {
    searchIndex.unindexBlob(this.sql, hash);
  }

  blobsContaining(literal: string): string[] {
    return searchIndex.blobsContaining(this.sql, literal);
  }

  blobTextState(hash: string): searchIndex.BlobTextState | undefined {
    return searchIndex.blobTextState(this.sql, hash);
  }

  searchProgress(maxSize: number): { indexedBlobs: number; totalBlobs: number } {
    return searchIndex.searchProgress(this.sql, maxSize);
  }

  searchIndexTotals(maxSize: number): searchIndex.SearchIndexTotals {
    return searchIndex.searchIndexTotals(this.sql, maxSize);
  }
}
