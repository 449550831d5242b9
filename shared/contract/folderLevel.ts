import type { FileEntry } from '../history.js';
import type { DeletedFile } from './values.js';

// One level of a project's file tree, and a folder's child folders for the browser host's picker.

/** A folder directly inside the folder asked for, with what lies beneath it (at any depth). */
export interface FolderChild {
  name: string;
  /** Project-relative, no trailing '/'. */
  path: string;
  /** Files present under it. */
  files: number;
  /** Files under it whose latest version is a deletion. */
  deleted: number;
  /** Whether a file under it differs from the baseline (or the baseline did not have it). */
  changed: boolean;
}

/** A file directly inside the folder asked for: its summary fields and its mark. */
export interface FolderFile extends FileEntry {
  name: string;
  /** Differs from the baseline (or the baseline did not have it). */
  changed: boolean;
}

/**
 * One level of the tree (fileTree with a folder): the folder's direct children, each list in the
 * order the tree shows them (compareNames of shared/treeOrder.ts).
 */
export interface FolderLevel {
  /** The folder asked for ('' for the project's root). */
  folder: string;
  /** The snapshot the level stands at. */
  snapshotId: number;
  folders: FolderChild[];
  files: FolderFile[];
  /** Files directly inside whose latest version is a deletion (as deletedFiles answers them). */
  deleted: DeletedFile[];
}

/** A folder's child folders, as the browser host's folder picker lists them (GET /folders). */
export interface FolderListing {
  /** The folder listed, its real absolute path. */
  path: string;
  /** The folder above it; null at the top of what may be browsed. */
  parent: string | null;
  /** The top of what may be browsed (the user's home folder). */
  root: string;
  /** Names of its child folders (and of links to folders inside the root), in the collator's order. */
  folders: string[];
  /** More folders than listed. */
  truncated: boolean;
}
