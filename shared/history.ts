// The domain of the history: snapshots (moments) and versions (one file in one moment). These
// shapes travel unchanged from the engine to the CLI's --json and through the contract to the
// viewer: one shape per concept, nulls where a value is absent (never undefined).

import type { GitFolderState } from './git.js';

/** Every kind of snapshot, once: the type, the zod enums of the wire formats and history.db's CHECK follow this list. */
export const SNAPSHOT_KINDS = ['baseline', 'change', 'restore', 'checkpoint'] as const;
export type SnapshotKind = (typeof SNAPSHOT_KINDS)[number];
export type EntryType = 'file' | 'symlink';

/**
 * Where a snapshot (and so each version in it) came from: a first copy, an edit seen on disk, a
 * restore (of a version, a snapshot or git's HEAD/INDEX), the undo of a restore, git rewriting
 * files (checkout, reset, stash, merge, rebase, pull: 'after' for the files it wrote, 'before' for
 * the checkpoint of the state it was about to change), or a named checkpoint.
 */
export const ORIGIN_KINDS = ['first-copy', 'edit', 'restore', 'undo', 'git', 'checkpoint'] as const;
export type OriginKind = (typeof ORIGIN_KINDS)[number];
export type GitSource = 'HEAD' | 'INDEX';

export interface Origin {
  kind: OriginKind;
  /** restore, undo: the version whose contents came back (on a snapshot: always null). */
  fromVersionId: number | null;
  /** restore, undo of a snapshot restore: the snapshot restored to. */
  fromSnapshotId: number | null;
  /** restore from git: which of git's versions came back. */
  fromGit: GitSource | null;
  /** git: the operation, as git names it ('checkout', 'reset', 'stash', 'merge', 'rebase', 'pull'...). */
  gitOperation: string | null;
  /** git: 'before' on the checkpoint of the state git was about to change, 'after' on what it wrote. */
  gitWhen: 'before' | 'after' | null;
}

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
  /** What made it (older stores: told by its kind). */
  origin: Origin;
  /**
   * Where its files are: the one file it recorded, or the deepest folder holding all of them
   * ('' when they are spread over the project's top); null when it recorded no file (a
   * checkpoint) or was written before this was recorded.
   */
  scope: string | null;
  /**
   * The machine it was recorded on and its id there, for a snapshot brought in from another
   * machine by a clone or a pull (absent: recorded on this machine).
   */
  machine?: { id: string; snapshot: number };
  /**
   * On a checkpoint git's operation made that records no file (its files are those of the snapshot
   * before it): that snapshot, which the timeline shows in its place (absent on every other).
   */
  foldedInto?: number;
}

/** The most paths a snapshot event names; a snapshot recording more names none (read everything again). */
export const SNAPSHOT_EFFECT_PATHS = 1000;

/**
 * What a snapshot of this machine's line changed, carried by its event so a view reads again only
 * what it shows of that: the folders holding these paths, the versions of a shown one.
 */
export interface SnapshotEffect {
  /** The paths it recorded a version of, sorted; null when more than SNAPSHOT_EFFECT_PATHS. */
  paths: string[] | null;
  /** Whether one of them is a deletion (the deleted files change). */
  removed: boolean;
  /** Whether it was pinned as it was written (the pins change). */
  pinned: boolean;
}

/** What a snapshot holds: its files, and how many changed since the checkpoint or first copy before it. */
export interface SnapshotSummary {
  snapshotId: number;
  /** Files present at it (not only the ones it recorded). */
  files: number;
  /** Paths changed after `since` up to and including this snapshot. */
  changedSince: number;
  /** The checkpoint or first copy counted from; null for the first copy itself. */
  since: { snapshotId: number; kind: 'baseline' | 'checkpoint' } | null;
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
  /** The snapshot's label: for a version git wrote, what git did ("Checked out `a1b2c3d` Fix the parser, on main"). */
  label: string | null;
  /** null for a deletion. */
  type: EntryType | null;
  /** A link's target; null for anything else. */
  target: string | null;
  branch: string | null;
  head: string | null;
  /** What made this version: its snapshot's origin, with the version it was restored from. */
  origin: Origin;
  /**
   * The path the file was renamed (moved) from, on the first version at its new path; null on
   * every other. A path's version list goes on past it with the older path's versions.
   */
  renamedFrom: string | null;
  /**
   * The machine its snapshot was recorded on and the snapshot's id there, for a version brought in
   * from another machine by a clone or a pull (absent: recorded on this machine).
   */
  machine?: { id: string; snapshot: number };
}

/** Lines of one version, counted from 1, both ends included (as `--lines 120,140` names them). */
export interface LineSpanInfo {
  from: number;
  to: number;
}

/**
 * One block of a version's change to the lines followed: `removed` were lines beforeLine.. of the
 * version before, `added` are lines afterLine.. of this one (lines counted from 1, terminators kept).
 */
export interface LineChange {
  beforeLine: number;
  removed: string[];
  afterLine: number;
  added: string[];
}

/** A version that changed the lines followed (a file's history for a selection, `log --lines`). */
export interface LineVersion extends VersionInfo {
  /** The lines followed, in this version. */
  lines: LineSpanInfo;
  /** The same lines in the version before; null where every one of them was added here. */
  linesBefore: LineSpanInfo | null;
  /** The blocks of this version's change that touch those lines, top to bottom. */
  changes: LineChange[];
}

/** A file as it is on disk now, beside its versions: which of them it is identical to. */
export interface DiskState {
  path: string;
  /** false when there is no file (or link) at that path now. */
  exists: boolean;
  type: EntryType | null;
  mode: number | null;
  size: number | null;
  /** SHA-256 of the contents (of a link: its target); null when there is no file. */
  hash: string | null;
  /** The newest version identical to the disk (contents, mode, kind; a deletion when there is no file): the current one. */
  currentVersionId: number | null;
  /** Every version identical to the disk: restoring one of them would change nothing. */
  sameVersionIds: number[];
  /** How many versions the file has: the viewer numbers a long history from it a page at a time. */
  versionCount: number;
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

/**
 * A file or folder of the project that could not be read, and why in words. It is left out of
 * what was recorded (a file keeps its earlier versions), and every rescan tries it again.
 */
export interface UnreadablePath {
  path: string;
  reason: string;
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
  /** What could not be read this time (sorted by path; empty when everything was). */
  unreadable: UnreadablePath[];
  /**
   * Paths ignore rules (.gitignore, the exclude setting) left out this time, a folder not entered
   * counting once; `hindsight ignored FOLDER` (the `ignored` call) lists them. Files git tracks are
   * never left out.
   */
  ignored: number;
  /**
   * Snapshot restores that were killed midway, found by this open before its catch-up: each was
   * completed (it had been recorded) or rolled back (the folder put back as it was before it);
   * paths changed since the kill are left alone and listed.
   */
  recoveredRestores: RecoveredRestore[];
  /** What the open repaired before recording, in words (a history registered under another spelling of the folder taken along); absent: nothing. */
  repaired?: string[];
}

/** A restore killed midway, as the next open finished it (restore/restoreRecovery.ts). */
export interface RecoveredRestore {
  outcome: 'completed' | 'rolled-back';
  /** Paths given back what they held before the restore. */
  putBack: string[];
  /** Paths changed since the kill (or that could not be put back), left as they are. */
  leftAlone: { path: string; reason: string }[];
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
  /**
   * Blobs absent from this disk that a remote holds (a clone's older versions, fetched the first
   * time they are read): not missing, and not in `missing`.
   */
  remoteOnly: number;
  /** verify with checkRemote: whether the remote still holds them; null when not asked for. */
  remoteCheck: RemoteCheck | null;
}

/** The remote asked whether it holds the blobs that live only there (one listing of its data). */
export interface RemoteCheck {
  /** The remote asked; null when the project has none to ask. */
  remote: string | null;
  /** Blobs it holds. */
  found: number;
  /** Blobs it was recorded to hold and does not (counted in `missing` too, with their versions). */
  absent: number;
  /** Why it could not be asked (its blobs then count as remote-only, unchecked); null when it was. */
  error: string | null;
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
