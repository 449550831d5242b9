import type { DeletedFile, FolderLevel } from '../../../shared/contract/values.js';
import type { FileEntry } from '../../../shared/history.js';
import * as emptyFolders from './emptyFolders.js';
import * as filePages from './filePages.js';
import { folderLevel, summarizedDeletedFiles } from './folderLevel.js';
import { baselineId, latestSnapshotId } from './snapshotQueries.js';
import type { Sql } from './sql.js';
import * as versionQueries from './versionQueries.js';

// The files of the folder at a snapshot or now (HistoryIndex.files): whole, a page at a time,
// one folder's level of the tree, its empty folders, and the files deleted.

export class FileIndex {
  constructor(private readonly sql: Sql) {}

  /**
   * Every file as it stands at a snapshot, on that snapshot's line (default: as this machine's
   * line has it now, what the folder holds), sorted by path.
   */
  filesAt(snapshotId?: number): FileEntry[] {
    return snapshotId === undefined ? versionQueries.ownFiles(this.sql) : versionQueries.filesAt(this.sql, snapshotId);
  }

  /** The files of filesAt, a page at a time in path order (filePages.ts): what a long listing streams. */
  filePages(snapshotId?: number): Iterable<FileEntry[]> {
    return snapshotId === undefined ? filePages.ownFilePages(this.sql) : filePages.filePagesAt(this.sql, snapshotId);
  }

  /**
   * One folder's direct children at a snapshot, on that snapshot's line (default: as this
   * machine's line has it now), in tree order, marked against the baseline.
   */
  folderLevel(folder: string, snapshotId?: number): FolderLevel {
    return folderLevel(this.sql, folder, snapshotId, baselineId(this.sql));
  }

  /** The deepest folders of a snapshot (default: the latest of this machine's line) with no file under them (emptyFolders.ts). */
  emptyFoldersAt(snapshotId?: number, files?: readonly FileEntry[]): string[] {
    const at = snapshotId ?? latestSnapshotId(this.sql);
    if (at === undefined) return [];
    return emptyFolders.emptyFoldersAt(this.sql, at, () => (files ? files.map((f) => f.path) : this.pathsAt(at)));
  }

  private *pathsAt(snapshotId: number): Generator<string> {
    for (const page of this.filePages(snapshotId)) for (const file of page) yield file.path;
  }

  deletedFiles(): DeletedFile[] {
    return summarizedDeletedFiles(this.sql, baselineId(this.sql)) ?? versionQueries.deletedFiles(this.sql);
  }
}
