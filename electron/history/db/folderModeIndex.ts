import * as folderModes from './folderModes.js';
import type { Sql } from './sql.js';

// Folders' recorded modes (HistoryIndex.folderModes, folderModes.ts): read as of a snapshot, and
// recorded by a rescan.

export class FolderModeIndex {
  constructor(private readonly sql: Sql) {}

  /** A folder's recorded mode as of a snapshot; undefined when it was never recorded by then. */
  folderModeAt(snapshotId: number, path: string): number | undefined {
    return folderModes.folderModeAt(this.sql, snapshotId, path);
  }

  /** folderModeAt with the snapshot that recorded the mode. */
  folderModeRowAt(snapshotId: number, path: string): { mode: number; snapshotId: number } | undefined {
    return folderModes.folderModeRowAt(this.sql, snapshotId, path);
  }

  /** Records the folders whose mode is new or changed, at a snapshot. */
  folderChanges(seen: ReadonlyMap<string, number>, complete: boolean): { added: string[]; gone: string[] } {
    return folderModes.folderChanges(this.sql, seen, complete);
  }

  /** `complete`: the walk saw every folder, so one recorded present that it did not see is gone. */
  recordFolderModes(snapshotId: number, seen: ReadonlyMap<string, number>, complete = false): number {
    return folderModes.recordFolderModes(this.sql, snapshotId, seen, complete);
  }
}
