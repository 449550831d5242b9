import * as pruneQueries from './pruneQueries.js';
import type { Sql } from './sql.js';

// What a prune asks of the index (HistoryIndex.prune): the plan's rows, each chunk applied in
// one transaction, the collection of marked blobs, tombstones, the git object ids of blobs, and
// the free pages given back after it (pruneQueries.ts).

export class PruneIndex {
  constructor(private readonly sql: Sql) {}

  pruneRows(): pruneQueries.PruneRows {
    return pruneQueries.pruneRows(this.sql);
  }

  pruneFingerprint(): string {
    return pruneQueries.pruneFingerprint(this.sql);
  }

  /**
   * Applies one chunk of a prune's plan in one transaction holding the write lock, when the
   * history is still the one planned from (`fingerprint`); else writes nothing and answers
   * undefined. `beforeCommit` runs last inside the transaction (a fault-injection point). Answers
   * the blobs marked and the fingerprint the chunk leaves (the next chunk's to check).
   */
  applyPruneChunk(
    fingerprint: string,
    chunk: pruneQueries.PruneWrite,
    now: number,
    beforeCommit?: () => void,
  ): { marked: number; fingerprint: string } | undefined {
    return this.sql.immediate(() => {
      if (pruneQueries.pruneFingerprint(this.sql) !== fingerprint) return undefined;
      const marked = pruneQueries.applyPrune(this.sql, chunk, now);
      beforeCommit?.();
      return { marked, fingerprint: pruneQueries.pruneFingerprint(this.sql) };
    });
  }

  /** One batch of marked blobs past `before` collected in one transaction (their files deleted by `unlink` inside it). */
  collectMarked(before: number, now: number, limit: number, unlink: (hash: string) => void): { looked: number; blobs: number; bytes: number } {
    return this.sql.immediate(() => {
      const hashes = pruneQueries.expiredMarks(this.sql, before, now, limit);
      let blobs = 0;
      let bytes = 0;
      for (const hash of hashes) {
        const freed = pruneQueries.collectBlob(this.sql, hash, now, unlink);
        if (freed === undefined) continue;
        blobs++;
        bytes += freed;
      }
      return { looked: hashes.length, blobs, bytes };
    });
  }

  dropTombstones(before: number): void {
    pruneQueries.dropTombstones(this.sql, before);
  }

  markedBlobs(): { blobs: number; bytes: number } {
    return pruneQueries.markedBlobs(this.sql);
  }

  spaceHolders(limit: number): { path: string; versions: number; bytes: number }[] {
    return pruneQueries.spaceHolders(this.sql, limit);
  }

  gitOids(hashes: readonly string[]): Map<string, string> {
    return pruneQueries.gitOids(this.sql, hashes);
  }

  rememberGitOids(pairs: readonly { hash: string; oid: string }[]): void {
    pruneQueries.rememberGitOids(this.sql, pairs);
  }

  /** Gives free pages back to the file system: all of them (VACUUM) when most pages are free, else what incremental vacuum can. */
  reclaimSpace(): void {
    const pages = this.sql.pragma('page_count') as number;
    const free = this.sql.pragma('freelist_count') as number;
    if (free === 0) return;
    if (free * 2 > pages) {
      // Switching to incremental takes a VACUUM; after it, later prunes give pages back cheaply.
      this.sql.pragma('auto_vacuum = INCREMENTAL');
      this.sql.exec('VACUUM');
    } else if (this.sql.pragma('auto_vacuum') === 2) {
      this.sql.pragma('incremental_vacuum');
    }
  }
}
