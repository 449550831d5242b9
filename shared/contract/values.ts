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
  SnapshotKind,
  SnapshotSummary,
  UnreadablePath,
  VersionInfo,
  VerifyResult,
} from '../history.js';
import type { RetentionPolicy } from '../retention.js';
import type { Settings } from './config.js';
import type { WindowsNameProblem } from '../windowsNames.js';
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

/** One remote of config.json as seen from one project's history (no request to the remote is made). */
export interface RemoteStatus {
  name: string;
  url: string;
  /** never-pushed: nothing sent yet; behind: snapshots recorded here are not on the remote yet; error: the last push failed. */
  state: 'up-to-date' | 'behind' | 'never-pushed' | 'error';
  /** Snapshots of this machine the remote does not have yet. */
  behind: number;
  /** Snapshots of this machine on the remote. */
  pushed: number;
  /** When the last push finished (ms since 1970), or null. */
  lastPushAt: number | null;
  /** The last push's failure, until a push succeeds. */
  lastError: string | null;
}

/** One other machine of a project, with what a pull brought in from it. */
export interface PulledMachine {
  machine: string;
  /** The machine's host name, as its head gives it. */
  name: string;
  /** Snapshots imported from it by this pull. */
  snapshots: number;
  /** The newest of them: its id on that machine, and here. */
  newest: { origin: number; snapshotId: number } | null;
}

/** What `pull` brought in: other machines' new snapshots (the folder is not changed). */
export interface PullResult {
  projectId: string;
  remoteProjectId: string;
  remote: string;
  /** This data folder's machine id. */
  machine: string;
  /** Snapshots imported in all. */
  snapshots: number;
  machines: PulledMachine[];
  /** Objects read (heads, indexes, records), the LIST not counted. */
  objects: number;
  /** Paths of the snapshots pulled that are one name in the folder (it folds case or normalization), each group sorted: a restore there refuses them. */
  collidingNames: string[][];
  ms: number;
}

export interface StoreStats {
  projectId: string;
  snapshots: number;
  versions: number;
  /** Distinct contents stored, and their bytes as the files are (their bytes on disk: density.storedBytes). */
  blobs: number;
  blobBytes: number;
  /** What every version would take if each were stored apart. */
  logicalBytes: number;
  /** logicalBytes - blobBytes: what content addressing saved. */
  dedupeSavedBytes: number;
  largestFiles: LargestFile[];
  /** The full-text index of every version's contents (see SearchIndexProgress). */
  searchIndex: SearchIndexStats;
  /** What compression saves, and what that means for the budget. */
  density: StoreDensity;
}

/**
 * The blobs' bytes as the files are (raw) against their bytes on disk (a compressed blob counted
 * as its compressed file; a blob whose file was not measured yet as its raw size), and how many
 * versions the budget holds at today's density against what it would hold uncompressed.
 */
export interface StoreDensity {
  rawBytes: number;
  storedBytes: number;
  /** rawBytes - storedBytes. */
  savedBytes: number;
  /** storedBytes / rawBytes (1 when there are none): 0.4 means 40% of the raw bytes are on disk. */
  ratio: number;
  /** Blobs by form: compressed, raw, and not measured yet (a compaction measures them). */
  blobsCompressed: number;
  blobsRaw: number;
  blobsUnmeasured: number;
  /** Raw blobs a compaction would still look at, and their bytes. */
  compactable: number;
  compactableBytes: number;
  /** The historyBudget setting; null: no budget (and the two estimates below are null). */
  budget: number | null;
  /** About how many versions the budget holds at the store's density, and uncompressed. */
  versionsInBudget: number | null;
  versionsInBudgetUncompressed: number | null;
}

/**
 * A compaction (`hindsight compact`, or the app's in the background): raw blobs looked at where
 * compression may pay, and what became of them. With dryRun nothing is written: `converted`,
 * `rawBytes`, `storedBytes` and `savedBytes` say what a run would do.
 */
export interface CompactResult {
  projectId: string;
  dryRun: boolean;
  /** Blobs to look at when the run began, and their raw bytes. */
  candidates: number;
  candidateBytes: number;
  /** Blobs looked at by this run. */
  looked: number;
  /** Converted to the compressed form (or would be): how many, their raw bytes, their bytes compressed, the difference. */
  converted: number;
  rawBytes: number;
  storedBytes: number;
  savedBytes: number;
  /** Found not worth compressing: kept raw, never looked at again. */
  keptRaw: number;
  /** Found compressed already (a run stopped between its rename and its record): recorded. */
  alreadyCompressed: number;
  /** Not on this disk (a clone's older versions): left alone. */
  absent: number;
  /** Bytes not those of their name: left for verify --repair (and marked damaged). */
  damaged: number;
  /** Stopped before the end (a cancel, SIGINT or SIGTERM, the store closing): the next run goes on from there. */
  stopped: boolean;
  ms: number;
}

/** How far the search index is: contents indexed (text, or found binary) of those within the size limit. */
export interface SearchIndexProgress {
  indexedBlobs: number;
  totalBlobs: number;
  done: boolean;
}

export interface SearchIndexStats extends SearchIndexProgress {
  /** Bytes of the text contents indexed, and of the index on disk (its ratio is the index's cost). */
  textBytes: number;
  indexBytes: number;
}

/** One place a search found its text: a line (from 1) and a column (from 1, UTF-16 code units). */
export interface SearchMatch {
  line: number;
  column: number;
  /** The matched text's length (UTF-16 code units; 0 for an empty regex match). */
  length: number;
  /** The line, cut around the match when it is long. */
  preview: string;
  /** Where the match lies in `preview` (UTF-16 offsets, clipped to the line shown): what the viewer marks. */
  previewFrom: number;
  previewTo: number;
}

export interface SearchVersionRef {
  versionId: number;
  snapshotId: number;
  at: number;
}

/** One file and one content holding the text: every version of that path with that content, newest first. */
export interface SearchHit {
  path: string;
  versions: SearchVersionRef[];
  /** When the first and the last of those versions were recorded. */
  firstSeen: number;
  lastSeen: number;
  /** Whether the file's latest version still holds the text (false: deleted, or the text is gone from it). */
  stillPresent: boolean;
  matches: SearchMatch[];
}

export interface SearchResult {
  /** False when the query was too short for the index (under 3 characters, or a regex without a 3-character literal) and every candidate was read. */
  indexed: boolean;
  /** How far the index was built; what it did not cover yet was read instead. */
  index: SearchIndexProgress;
  /** Newest first (by lastSeen). */
  results: SearchHit[];
  /** More hits exist than the limit asked for. */
  truncated: boolean;
  /** The versions the search had to skip because their stored contents are missing or damaged: they may hold the text. */
  unreadable: SearchUnreadable;
}

/** What a search could not read: every version skipped is counted, the first files are named. */
export interface SearchUnreadable {
  /** How many versions were skipped (of the groups the search reached before it stopped at its limit). */
  versions: number;
  /** Their files, in the order the search met them, each with its versions skipped, newest first (at most 100 files named). */
  files: SearchUnreadableFile[];
}

export interface SearchUnreadableFile {
  path: string;
  versions: SearchVersionRef[];
}

/** What is pinned in a project's history: no prune removes these snapshots and versions. */
export interface Pins {
  snapshots: number[];
  versions: number[];
}

/** Why a prune keeps a snapshot (the strongest reason), or why it removes one. */
export type PruneWhy = 'newest' | 'pinned' | 'otherMachines' | 'uncommitted' | 'policy' | 'thinned' | 'budget';

export interface PruneDecision {
  snapshotId: number;
  at: number;
  kind: SnapshotKind;
  label: string | null;
  /** The snapshot's files and where they are, as SnapshotInfo says them (its title in the timeline). */
  files: number;
  scope: string | null;
  kept: boolean;
  why: PruneWhy;
}

/**
 * What a prune removed (or, with dryRun, would remove). `versions`, `snapshots`, `blobs` and
 * `bytesFreed` count what it leaves unreferenced; the blob files go once their grace period is
 * over (`deletedBlobs`/`deletedBytes`: the files this run deleted, from this or earlier prunes;
 * `waitingBlobs`/`waitingBytes`: those still in their grace period).
 */
export interface PruneResult {
  dryRun: boolean;
  versions: number;
  snapshots: number;
  blobs: number;
  bytesFreed: number;
  /** Kept snapshots by their strongest reason. */
  keptBecause: { newest: number; pinned: number; otherMachines: number; uncommitted: number; policy: number };
  /** Bytes of the blobs the kept history names, against the budget (null: none). */
  keptBytes: number;
  budget: number | null;
  /** False when what is always kept (newest, pinned, uncommitted) alone is over the budget. */
  budgetMet: boolean;
  /** Versions moved forward into the next kept snapshot (a thinned range folded). */
  foldedVersions: number;
  /** The snapshot that became the baseline when the old one was removed. */
  newBaseline: number | null;
  deletedBlobs: number;
  deletedBytes: number;
  waitingBlobs: number;
  waitingBytes: number;
  /** Where the policy's rules stop reaching (times): every version since, one per hour since, one per day since. */
  thinning: { everyVersionSince: number; hourlySince: number | null; dailySince: number | null };
  /** With dryRun: every snapshot, kept or removed, and why. */
  decisions: PruneDecision[] | null;
  /** With retention.archiveToRemote (or --archive-to): what moved to the remote instead; null: none. */
  archive: PruneArchive | null;
  ms: number;
}

/**
 * A prune that archives: the thinned versions stay (rows), the blobs only they name go to the
 * remote and leave this disk. `blobs`/`bytes`: those found on this disk (what a dry run would
 * move); `movedBlobs`/`movedBytes`: removed from this disk after the remote had them.
 */
export interface PruneArchive {
  remote: string;
  blobs: number;
  bytes: number;
  movedBlobs: number;
  movedBytes: number;
  /** Why nothing moved (the push failed); every version is still on this disk. */
  error: string | null;
}

/** A file whose versions hold the most bytes of the store. */
export interface SpaceHolder {
  path: string;
  versions: number;
  /** Bytes of the distinct blobs its versions name. */
  bytes: number;
}

/** A project's history against its budget: what the Store tab shows. */
export interface RetentionStatus {
  projectId: string;
  /** Bytes of every stored blob, including those waiting for their grace period. */
  usedBytes: number;
  waitingBytes: number;
  budget: number | null;
  policy: RetentionPolicy;
  spaceHolders: SpaceHolder[];
  pins: Pins;
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
