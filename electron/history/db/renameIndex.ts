import * as renames from './renames.js';
import type { Sql } from './sql.js';

// Renames (HistoryIndex.renames, renames.ts): a path's lineage through them, and the stored
// renames as scored again (versions/rescoreRenames.ts).

export class RenameIndex {
  constructor(private readonly sql: Sql) {}

  /** The renames a snapshot recorded. */
  renamesIn(snapshotId: number): { path: string; fromPath: string }[] {
    return renames.renamesIn(this.sql, snapshotId);
  }

  /** The snapshots holding a rename, oldest first. */
  snapshotsWithRenames(): number[] {
    return renames.snapshotsWithRenames(this.sql);
  }

  /** A snapshot's renames replaced by these, in one transaction. */
  replaceRenames(snapshotId: number, links: readonly { path: string; fromPath: string }[]): void {
    renames.replaceRenames(this.sql, snapshotId, links);
  }

  /** Whether a version is part of a path's history, through the renames that brought the file there. */
  inLineage(path: string, version: { path: string; snapshotId: number }): boolean {
    return renames.inLineage(this.sql, path, version);
  }
}
