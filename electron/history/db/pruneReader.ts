import { ReadOnlyReader } from './readOnlyReader.js';
import { gitOids, pruneFingerprint, pruneRows, type PruneRows } from './pruneQueries.js';

// A prune's reads from its own read-only connection (the prune planner's worker thread opens
// one): the rows a plan is made from and their fingerprint, read in one transaction, so the
// fingerprint names exactly the state planned from. WAL lets this run while the history process's
// connection writes; the write (HistoryIndex.prune.applyPruneChunk) checks the fingerprint again.

export class PruneReader extends ReadOnlyReader {
  /** The history as one state: its fingerprint and the rows a plan is made from. */
  read(): { fingerprint: string; rows: PruneRows } {
    return this.sql.transaction(() => ({ fingerprint: pruneFingerprint(this.sql), rows: pruneRows(this.sql) }));
  }

  /** git's object ids already known for these blobs (the uncommitted rule's cache). */
  gitOids(hashes: readonly string[]): Map<string, string> {
    return gitOids(this.sql, hashes);
  }
}
