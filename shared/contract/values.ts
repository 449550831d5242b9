import type { HindsightErrorData } from '../errors.js';
import type {
  DiskState,
  FileEntry,
  GitSource,
  LineSpanInfo,
  LineVersion,
  OpenResult,
  Origin,
  SnapshotChange,
  SnapshotInfo,
  SnapshotSummary,
  UnreadablePath,
  VersionInfo,
  VerifyResult,
} from '../history.js';
import type { Settings } from './config.js';
import type { NameRules } from '../nameFold.js';

// What the calls answer with, beyond the domain types of shared/history.ts. The engine's methods
// return exactly these, and the CLI's --json prints them: one shape per concept. A field the CLI
// documented before the contract existed keeps its name beside the contract's (extend, never
// rename): those are marked "CLI name".

export type {
  DiskState,
  FileEntry,
  GitSource,
  LineSpanInfo,
  LineVersion,
  OpenResult,
  Origin,
  SnapshotChange,
  SnapshotInfo,
  SnapshotSummary,
  UnreadablePath,
  VersionInfo,
  VerifyResult,
};

// The answers of one area each live in a file of their own; importers keep reading them here.
export type * from './restore.js';
export type * from './bundles.js';
export type * from './remotes.js';
export type * from './storeSpace.js';
export type * from './search.js';
export type * from './prune.js';
export type * from './folderLevel.js';

/** Where a known project's folder stands, as last seen. */
export type ProjectState = 'present' | 'moved' | 'gone' | 'replaced' | 'config-corrupt';

export interface ProjectSummary {
  projectId: string;
  root: string;
  /** The folder's name unless the user renamed it. */
  name: string;
  state: ProjectState;
  /** Whether this process has the project's store open now. */
  open: boolean;
  pinned: boolean;
  /** Milliseconds since the epoch, when known. */
  lastOpenedAt: number | null;
  /** CLI name of projectId (config.json's `id`). */
  id: string;
  /** When config.json first listed it; null for a folder opened here that config.json does not list. */
  addedAt: number | null;
  /** What the last look at the folder recorded in config.json (state may be newer). */
  lastSeen: 'present' | 'moved' | 'gone';
  /**
   * How the folder compares names (case, Unicode normalization: shared/nameFold.ts), found
   * read-only when the project is listed; null while the folder is not there to look at.
   */
  nameRules: NameRules | null;
}

export interface OpenProjectResult extends OpenResult {
  project: ProjectSummary;
}

/** Some bytes of a version (or of the file on disk): text when they are UTF-8, else base64. */
export interface FileBytes {
  path: string;
  /** null for the file as it is on disk now, or for git's version. */
  versionId: number | null;
  /** The whole size in bytes; `data` may hold fewer (see `truncated`). */
  size: number;
  /** True when only the first `returnedBytes` bytes travelled. */
  truncated: boolean;
  returnedBytes: number;
  encoding: 'utf8' | 'base64';
  /** Looks like binary (a NUL byte, or not valid UTF-8). */
  binary: boolean;
  type: 'file' | 'symlink';
  mode: number;
  data: string;
}

/** The two sides of a diff; a side is null when that file does not exist there (added, deleted). */
export interface DiffInputs {
  path: string;
  before: FileBytes | null;
  after: FileBytes | null;
}

/** One changed block of a line diff: lines [aStart, aEnd) of the version, [bStart, bEnd) of the file on disk (0-based). */
export interface HunkRange {
  aStart: number;
  aEnd: number;
  bStart: number;
  bEnd: number;
}

export interface RescanResult {
  projectId: string;
  /** The new snapshot of kind 'change', or null when nothing changed. */
  snapshotId: number | null;
  /** A checkpoint written first (e.g. git moved HEAD), or null. */
  checkpointId: number | null;
  /** How many files changed. */
  changed: number;
  /** Paths compared, and of those, hashed (their stat differed or was racy). */
  paths: number;
  hashed: number;
  ms: number;
  /** What could not be read (sorted by path): left as it was recorded, tried again next time. */
  unreadable: UnreadablePath[];
}

export interface DeletedFile {
  path: string;
  /** The version that records the deletion. */
  deletion: VersionInfo;
  /** The last version that had contents: what a restore brings back. */
  lastContents: VersionInfo | null;
  /** CLI names: the deletion's version, snapshot and time (= deletion.versionId, .snapshotId, .at). */
  versionId: number;
  snapshotId: number;
  deletedAt: number;
  /** CLI names: the last version with contents and its size (= lastContents.versionId, .size). */
  lastVersionId: number | null;
  size: number | null;
}

export interface LargestFile {
  path: string;
  hash: string;
  size: number;
}

export interface ConfigView {
  settings: Settings;
  projects: ProjectSummary[];
  /** Set when config.json is corrupt or unreadable: settings are the defaults and edits are refused. */
  error: HindsightErrorData | null;
}

export interface CancelResult {
  /** False when no running operation had that id (it may have finished already). */
  cancelled: boolean;
}

/** Where the API runs: the Electron app (native dialogs, drag and drop paths) or the browser host. */
export interface HostInfo {
  kind: 'electron' | 'browser';
  nativeDialogs: boolean;
  /** Whether a dropped folder's path can be read (Electron only). */
  dropPaths: boolean;
  platform: string;
  version: string;
}
