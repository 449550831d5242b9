// The domain of the history: snapshots (moments) and versions (one file in one moment).

import type { GitFolderState } from './git.js';

export type SnapshotKind = 'baseline' | 'change' | 'restore' | 'checkpoint';
export type EntryType = 'file' | 'symlink';

export interface SnapshotInfo {
  snapshotId: number;
  kind: SnapshotKind;
  /** Milliseconds since the epoch. */
  at: number;
  label: string | null;
  /** How many versions the snapshot records. */
  files: number;
  branch?: string | null;
  head?: string | null;
}

/** One file as it stands at a snapshot. */
export interface FileEntry {
  path: string;
  type: EntryType;
  hash: string;
  mode: number;
  size: number;
  target?: string;
}

/** One version of one file; hash null means the file was deleted in that snapshot. */
export interface VersionInfo {
  versionId: number;
  snapshotId: number;
  hash: string | null;
  mode: number;
  size: number;
  at: number;
  kind: SnapshotKind;
  type?: EntryType | null;
  target?: string | null;
  branch?: string | null;
  head?: string | null;
}

export interface OpenResult {
  projectId: string;
  root: string;
  files: number;
  bytes: number;
  blobs: number;
  ms: number;
  firstCopy: boolean;
  /** Whether the folder is in a git repository, with the branch and commit HEAD is on. */
  git?: GitFolderState;
}

export interface VerifyResult {
  blobs: number;
  ok: boolean;
  missing: BlobProblem[];
  corrupt: BlobProblem[];
}

export interface BlobProblem {
  hash: string;
  versions: { versionId: number; snapshotId: number; path: string }[];
}
