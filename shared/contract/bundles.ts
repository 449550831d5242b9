import type { UnwritableName } from './restore.js';

// What a history bundle's export and import answer, and the damaged contents they name.

/** A history written as a bundle (exportHistory; the CLI's export). */
export interface ExportResult {
  projectId: string;
  /** The file written (absolute); null when the bundle went to a stream (stdout, a download). */
  to: string | null;
  /** --since: the snapshot the receiver must already hold; null for the whole history. */
  since: number | null;
  /** The snapshots carried: ids first..last, and how many. */
  first: number | null;
  last: number | null;
  snapshots: number;
  /** Blobs the receiver must already hold (incremental bundles). */
  requires: number;
  /** Blobs carried, and the bytes of their contents. */
  blobs: number;
  bytes: number;
  /** The bundle's own size. */
  size: number;
  ms: number;
  /** --skip-damaged: the contents found damaged or missing here, left out of the bundle (its header names them); empty otherwise. */
  leftOut: DamagedContents[];
}

/** Stored contents found damaged or missing, with every version whose bytes they are. */
export interface DamagedContents {
  hash: string;
  size: number;
  problem: 'missing' | 'corrupt';
  versions: { path: string; versionId: number }[];
}

/** A bundle read into a project's history (importHistory; the CLI's import). */
export interface ImportResult {
  /** The project the history is now attached to (its folder's id), and its folder. */
  projectId: string;
  root: string;
  /** The id the history was first recorded under (the bundle's). */
  historyId: string;
  /** Snapshots the bundle carried, and how many of them were new here (0 when it was imported before). */
  snapshots: number;
  added: number;
  first: number | null;
  last: number | null;
  /** Blobs written, and blobs the store held already. */
  blobsWritten: number;
  blobsPresent: number;
  bytes: number;
  /**
   * Paths of the history that are one name in the folder (it folds case or Unicode normalization),
   * each group sorted; found before anything was written. Every version is kept, but a restore there
   * refuses them: restore them into a folder that tells them apart, or one of each group alone.
   */
  collidingNames: string[][];
  /** Paths of the history Windows cannot hold (on Windows only): a restore there skips them. */
  unwritableNames: UnwritableName[];
  ms: number;
}
