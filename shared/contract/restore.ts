import type { GitSource } from '../history.js';
import type { WindowsNameProblem } from '../windowsNames.js';

// What a restore answers: one file put back, a snapshot's steps previewed and run, a snapshot
// written into a new folder.

export interface RestoreFileResult {
  /** The snapshot of kind 'restore'. */
  snapshotId: number;
  /** The snapshot that recorded what the file held before, when it was not yet recorded. */
  capturedSnapshotId: number | null;
  path: string;
  versionId: number;
  /** Restore this version of the path to undo: what the file held just before (a deletion when it did not exist). */
  undoVersionId: number | null;
  /** A restore from git: which of git's versions came back (versionId is then the version it recorded). */
  fromGit: GitSource | null;
  /** Files and folders whose setuid/setgid/sticky bits from another history were not restored (keepSpecialModes keeps them). */
  specialModesDropped: number;
}

/** What a snapshot restore would do, file by file. */
/** One step a snapshot restore takes, in the order it takes them: what a dry run lists is what runs. */
export interface RestoreStepInfo {
  /** remove: an added file deleted; removeFolder: a folder where the snapshot has a file or link; makeFolder: a missing folder; write: a version put in place. */
  op: 'remove' | 'removeFolder' | 'makeFolder' | 'write';
  path: string;
}

export interface RestorePreview {
  snapshotId: number;
  /** The folder or file the restore is limited to, as asked; '' is the whole project. */
  pathPrefix: string;
  /** CLI name: the same limit, normalised (no trailing '/'); null for the whole project. */
  prefix: string | null;
  deleteAdded: boolean;
  /** Files whose contents or mode will be written. */
  write: string[];
  /** Files deleted since the snapshot that will be recreated. */
  recreate: string[];
  /** Files added after the snapshot: deleted only with deleteAdded, and recorded first. */
  added: string[];
  /** The added files the restore will delete: `added` with deleteAdded, else none. */
  delete: string[];
  /** Files that already match the snapshot. */
  unchanged: number;
  /** The git branch the snapshot was taken on, and the one checked out now (null outside git or detached). */
  snapshotBranch: string | null;
  branchNow: string | null;
  /** Files whose setuid/setgid/sticky bits from another history will not be restored (keepSpecialModes keeps them). */
  specialModesDropped: number;
  /** Every step the restore takes, in order (type changes are a removal, then a write). */
  steps: RestoreStepInfo[];
  /** Files the restore will not write because Windows cannot hold their names (on Windows only; absent: none). */
  skipped?: UnwritableName[];
}

/** A name Windows cannot hold (shared/windowsNames.ts): skipped by a restore there, listed by an import. */
export interface UnwritableName {
  path: string;
  problem: WindowsNameProblem;
}

export interface RestoreSnapshotResult {
  dryRun: boolean;
  /** The plan: always on a dry run; null after a real restore (see the counts). */
  preview: RestorePreview | null;
  /** The snapshot of kind 'restore'; null on a dry run or when nothing had to change. */
  snapshotId: number | null;
  /** Restore this snapshot to undo the restore (the state recorded just before it). */
  undoSnapshotId: number | null;
  /** The snapshot restored to. */
  targetSnapshotId: number;
  /** What the disk held before the restore, recorded first (null when it was recorded already). */
  capturedSnapshotId: number | null;
  /** A checkpoint written before that capture (git moved HEAD, or many files changed), or null. */
  checkpointId: number | null;
  written: number;
  recreated: number;
  /** Files added after the snapshot and deleted (only with deleteAdded; recorded first). */
  deleted: number;
  unchanged: number;
  /** Files added after the snapshot and kept. */
  kept: number;
  /** Files and folders whose setuid/setgid/sticky bits from another history were not restored (keepSpecialModes keeps them). */
  specialModesDropped: number;
  /** The steps taken (a dry run: the steps it would take), in order. */
  steps: RestoreStepInfo[];
  /** Files not written because Windows cannot hold their names (on Windows only; absent: none). */
  skipped?: UnwritableName[];
  ms: number;
}

/** A snapshot written into a new folder (materializeSnapshot; the CLI's restore --into). */
export interface MaterializeResult {
  projectId: string;
  snapshotId: number;
  /** The folder written, absolute. */
  into: string;
  /** Regular files, links and folders written (folders: the ones holding files). */
  files: number;
  links: number;
  folders: number;
  /** Bytes of the files' contents. */
  bytes: number;
  /** Whether file closes ran on the background closer. */
  backgroundClose: boolean;
  /** Files and folders whose setuid/setgid/sticky bits from another history were not written (keepSpecialModes keeps them). */
  specialModesDropped: number;
  /** Files not written because Windows cannot hold their names (on Windows only; absent: none). */
  skipped?: UnwritableName[];
  ms: number;
}
