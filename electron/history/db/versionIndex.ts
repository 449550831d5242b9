import type { SnapshotChange, VersionInfo } from '../../../shared/history.js';
import type { Sql } from './sql.js';
import * as versionQueries from './versionQueries.js';

// The versions of the history (HistoryIndex.versions, versionQueries.ts): one path's, one by id,
// the newest before a snapshot, what a snapshot changed, and those naming a blob.

export class VersionIndex {
  constructor(private readonly sql: Sql) {}

  /** Every version of one path, of every line, oldest first. */
  versionsOf(path: string): VersionInfo[] {
    return versionQueries.versionsOf(this.sql, path);
  }

  /** The versions of one path on this machine's line, oldest first. */
  ownVersionsOf(path: string): VersionInfo[] {
    return versionQueries.ownVersionsOf(this.sql, path);
  }

  /** The newest `limit` versions of a path older than snapshot `before`, oldest first. */
  versionsPage(path: string, before: number | undefined, limit: number): VersionInfo[] {
    return versionQueries.versionsPage(this.sql, path, before, limit);
  }

  version(versionId: number): VersionInfo | undefined {
    return versionQueries.version(this.sql, versionId);
  }

  latestVersion(path: string): VersionInfo | undefined {
    return versionQueries.latestVersion(this.sql, path);
  }

  /** The version of a path just before a snapshot. */
  versionBefore(path: string, snapshotId: number): VersionInfo | undefined {
    return versionQueries.versionBefore(this.sql, path, snapshotId);
  }

  /** The id of the version a path had as of a snapshot. */
  versionIdAt(path: string, snapshotId: number): number | undefined {
    return versionQueries.versionIdAt(this.sql, path, snapshotId);
  }

  /** The latest version of a path that has contents. */
  latestContents(path: string): VersionInfo | undefined {
    return versionQueries.latestContents(this.sql, path);
  }

  /** The fields a change group compares with (one cached statement: a mass change asks thousands of times). */
  latestVersionOf(path: string): versionQueries.LatestVersion | undefined {
    return versionQueries.latestVersionOf(this.sql, path);
  }

  snapshotChanges(snapshotId: number): SnapshotChange[] {
    return versionQueries.snapshotChanges(this.sql, snapshotId);
  }

  versionsNaming(hash: string): { versionId: number; snapshotId: number; path: string }[] {
    return versionQueries.versionsNaming(this.sql, hash);
  }
}
