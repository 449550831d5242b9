import type { SnapshotInfo } from '../../../shared/history.js';
import * as snapshotQueries from './snapshotQueries.js';
import type { Sql } from './sql.js';

// The snapshots of the history (HistoryIndex.snapshotReads, snapshotQueries.ts): listed whole or
// a page at a time, one by id, and the marks and counts around one.

export class SnapshotIndex {
  constructor(private readonly sql: Sql) {}

  snapshots(): SnapshotInfo[] {
    return snapshotQueries.snapshots(this.sql);
  }

  /** Every snapshot, oldest first, a page at a time. */
  snapshotPages(): Iterable<SnapshotInfo[]> {
    return snapshotQueries.snapshotPages(this.sql);
  }

  snapshot(id: number): SnapshotInfo | undefined {
    return snapshotQueries.snapshot(this.sql, id);
  }

  baselineId(): number | undefined {
    return snapshotQueries.baselineId(this.sql);
  }

  /** The newest snapshot of this machine's line (pulled snapshots of other machines may have larger ids). */
  latestSnapshotId(): number | undefined {
    return snapshotQueries.latestSnapshotId(this.sql);
  }

  /** The largest snapshot id of any line. */
  lastSnapshotId(): number | undefined {
    return snapshotQueries.lastSnapshotId(this.sql);
  }

  previousMark(snapshotId: number): { id: number; kind: 'baseline' | 'checkpoint' } | undefined {
    return snapshotQueries.previousMark(this.sql, snapshotId);
  }

  filesPresentAt(snapshotId: number): number {
    return snapshotQueries.filesPresentAt(this.sql, snapshotId);
  }

  /** How many files the folder holds as recorded on this machine's line, and their bytes, without reading their rows. */
  ownFileTotals(): { files: number; bytes: number } {
    return snapshotQueries.ownFileTotals(this.sql);
  }

  pathsChangedBetween(after: number, upTo: number): number {
    return snapshotQueries.pathsChangedBetween(this.sql, after, upTo);
  }

  previousSnapshotId(snapshotId: number): number | undefined {
    return snapshotQueries.previousSnapshotId(this.sql, snapshotId);
  }

  latestSnapshotContext(): { snapshotId: number; branch: string | null; head: string | null } | undefined {
    return snapshotQueries.latestSnapshotContext(this.sql);
  }
}
