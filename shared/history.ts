// The domain of the history: snapshots (moments) and versions (one file in one moment). These
// shapes travel unchanged from the engine to the CLI's --json and through the contract to the
// viewer: one shape per concept, nulls where a value is absent (never undefined).

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
  /** The git branch and commit HEAD was on when it was taken (null outside a repository). */
  branch: string | null;
  head: string | null;
}

/** One file as it stands at a snapshot. */
export interface FileEntry {
  path: string;
  type: EntryType;
  hash: string;
  mode: number;
  size: number;
  /** A link's target; absent for a file. */
  target?: string;
}

/** One version of one file; hash null means the file was deleted in that snapshot. */
export interface VersionInfo {
  versionId: number;
  snapshotId: number;
  path: string;
  hash: string | null;
  mode: number;
  size: number;
  /** The snapshot's time and kind. */
  at: number;
  kind: SnapshotKind;
  /** null for a deletion. */
  type: EntryType | null;
  /** A link's target; null for anything else. */
  target: string | null;
  branch: string | null;
  head: string | null;
}

/** What one snapshot changed in one file, relative to the version before it. */
export interface SnapshotChange {
  path: string;
  change: 'added' | 'modified' | 'deleted';
  /** The version this snapshot recorded (for a deletion: the deletion). */
  versionId: number;
  hash: string | null;
  mode: number;
  size: number;
  type: EntryType | null;
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
  git: GitFolderState;
}

export interface VerifyResult {
  blobs: number;
  /** No blob is missing or corrupt any more (repaired ones count as intact). */
  ok: boolean;
  /** Blobs still missing, and still damaged, with the versions that cannot be restored. */
  missing: BlobProblem[];
  corrupt: BlobProblem[];
  /** Blobs found missing or damaged and written again from the folder (verify with repair). */
  repaired: BlobProblem[];
}

/** What `hindsight repair FOLDER` did: the index brought back from its backup (or kept), then every blob re-checked. */
export interface IndexRepairResult {
  projectId: string;
  root: string;
  /** The backup that replaced an unreadable index; null when the index could be read and was kept. */
  restoredFrom: string | null;
  /** Where the unreadable index was moved (kept, never deleted); null when none was. */
  damagedKeptAt: string | null;
  verify: VerifyResult;
}

export interface BlobProblem {
  hash: string;
  versions: { versionId: number; snapshotId: number; path: string }[];
}
