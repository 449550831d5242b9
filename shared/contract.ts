import type { ViewLink } from './viewLink.js';
import * as z from 'zod';
import type { HindsightErrorData } from './errors.js';
import type { GitVersions } from './git.js';
import type { SnapshotEffect } from './history.js';
import type { Progress } from './progress.js';
import type { RecordingStatus } from './recording.js';
import { projectEditSchema, settingsSchema } from './contract/config.js';
import { CALL_NAME_LIST, EVENT_NAME_LIST } from './contract/names.js';
import { useRemoteCredentialsSchema } from './contract/remoteCredentials.js';
import {
  folderPath,
  hunkRange,
  label,
  maxBytes,
  operationId,
  pathPrefix,
  projectId,
  projectPath,
  sha256Hex,
  snapshotId,
  versionId,
} from './contract/fields.js';
import type {
  CancelResult,
  ConfigView,
  DeletedFile,
  DiffInputs,
  DiskState,
  FileBytes,
  FileEntry,
  FolderLevel,
  OpenProjectResult,
  Pins,
  PruneResult,
  RetentionStatus,
  ProjectState,
  ProjectSummary,
  ExportResult,
  ImportResult,
  MaterializeResult,
  RescanResult,
  RestoreFileResult,
  RestorePreview,
  RestoreSnapshotResult,
  SearchResult,
  SnapshotChange,
  SnapshotInfo,
  SnapshotSummary,
  StoreStats,
  PullResult,
  RemoteStatus,
  VersionInfo,
  VerifyResult,
  LineVersion,
} from './contract/values.js';
import type { ChangeDensity, StoreGrowth } from './contract/timeDensity.js';

// The contract between the viewer and the history process: every call (its name, the zod schema
// its request must pass, the type it answers with) and every event (its name and payload).
// The history process validates every request against these schemas and answers a bad one with
// BAD_REQUEST; every answer is a Result (shared/contract/result.ts), so errors survive the trip.
// Long work takes an optional operationId chosen by the caller: `cancel` stops it, and its
// progress events carry it.

interface CallSpec<Request extends z.ZodType, Response> {
  request: Request;
  doc: string;
  /** Never set: carries the response type. */
  readonly response?: Response;
}

function call<Response>() {
  return <Request extends z.ZodType>(request: Request, doc: string): CallSpec<Request, Response> => ({ request, doc });
}

const gitSource = z.enum(['HEAD', 'INDEX']);

/** The viewer's offset from UTC in minutes (east positive): where its hours and days begin. */
const utcOffsetMinutes = z.number().int().min(-840).max(840).default(0);

const diffSide = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('version'), versionId }),
  /** The file as it is on disk now. */
  z.strictObject({ kind: z.literal('disk') }),
  /** git's committed (HEAD) or staged (INDEX) version. */
  z.strictObject({ kind: z.literal('git'), source: gitSource }),
]);

/**
 * Keep setuid, setgid and sticky bits on what came from another history (an imported bundle, a
 * clone, a pull). Off unless the user asks: they are dropped, and counted (specialModesDropped).
 */
const keepSpecialModes = z.boolean().default(false);

const restoreScope = {
  projectId,
  snapshotId,
  /** Only files under this folder; '' (the default) is the whole project. */
  pathPrefix: pathPrefix.default(''),
  /** Delete files added after the snapshot (recorded first). Off unless the user asks. */
  deleteAdded: z.boolean().default(false),
  keepSpecialModes,
};

export const CALLS = {
  openProject: call<OpenProjectResult>()(
    z.strictObject({
      path: folderPath,
      operationId: operationId.optional(),
      /** The user confirmed a first copy past the large-folder settings (asked after CONFIRM_LARGE_FOLDER). */
      confirmLarge: z.boolean().optional(),
    }),
    'Opens a folder: its first copy when it has no history (CONFIRM_LARGE_FOLDER, with what was found, past the large-folder settings unless confirmLarge), else a rescan. Answers with its projectId.',
  ),
  relocateProject: call<OpenProjectResult>()(
    z.strictObject({ projectId, path: folderPath, operationId: operationId.optional() }),
    "A known project's folder found at a new place: its history moves there when it is the same folder (device, inode, birth time), then it is opened. Answers with the new projectId.",
  ),
  closeProject: call<null>()(z.strictObject({ projectId }), 'Closes a project in this process (its history stays).'),
  listProjects: call<ProjectSummary[]>()(z.strictObject({}), 'Every known project, open or not.'),

  log: call<SnapshotInfo[]>()(z.strictObject({ projectId }), "A project's snapshots, oldest first (checkpoints included)."),
  snapshotChanges: call<SnapshotChange[]>()(
    z.strictObject({ projectId, snapshotId }),
    'What one snapshot changed, file by file (added, modified, deleted), sorted by path.',
  ),
  snapshotSummary: call<SnapshotSummary>()(
    z.strictObject({ projectId, snapshotId }),
    'What a snapshot holds: the files present at it, and how many changed since the checkpoint or first copy before it.',
  ),
  fileTree: call<FileEntry[] | FolderLevel>()(
    z.strictObject({
      projectId,
      snapshotId: snapshotId.optional(),
      /** Only this folder's direct children (a FolderLevel); '' is the root. Absent: every file. */
      folder: pathPrefix.optional(),
    }),
    "Every file as it stands at a snapshot (default: the latest), sorted by path; with folder, only that folder's level (folders with their counts, files, deleted files), in tree order.",
  ),
  versions: call<VersionInfo[]>()(
    z.strictObject({
      projectId,
      path: projectPath,
      /** At most this many: the newest ones (a page). Absent: every version. */
      limit: z.number().int().min(1).max(10_000).optional(),
      /** Only versions older than this one (the oldest of the page before). */
      before: versionId.optional(),
    }),
    "A file's versions, oldest first; with limit, the newest `limit` (older than `before`): one page of a long history.",
  ),
  lineHistory: call<LineVersion[]>()(
    z.strictObject({
      projectId,
      path: projectPath,
      /** The lines followed, counted from 1 (both included) in version versionId (absent: the newest). */
      from: z.number().int().min(1),
      to: z.number().int().min(1),
      versionId: versionId.optional(),
    }),
    'The versions that changed some lines of a file, oldest first, each with its change to them: the lines followed back as lines above them come and go (as `git log -L` follows them).',
  ),
  diskState: call<DiskState>()(
    z.strictObject({ projectId, path: projectPath }),
    'The file as it is on disk now, and which of its versions it is identical to (the current one).',
  ),
  readVersion: call<FileBytes>()(
    z.strictObject({ projectId, path: projectPath, versionId: versionId.optional(), maxBytes }),
    "A version's bytes (default: the latest with contents), at most maxBytes (default 2 MiB), marked when truncated.",
  ),
  diffInputs: call<DiffInputs>()(
    z.strictObject({ projectId, path: projectPath, before: diffSide, after: diffSide, maxBytes }),
    "The two texts to compare: any two of a version, the file on disk now, and git's HEAD or INDEX version.",
  ),

  gitVersions: call<GitVersions>()(
    z.strictObject({ projectId, path: projectPath }),
    "A file's committed (HEAD) and staged versions from git, when the folder is in a repository.",
  ),

  restoreFile: call<RestoreFileResult>()(
    z.strictObject({ projectId, path: projectPath, versionId, keepSpecialModes }),
    'Restores one file to a version; what it held is recorded first, and the restore is a snapshot.',
  ),
  restoreFromGit: call<RestoreFileResult>()(
    z.strictObject({ projectId, path: projectPath, source: gitSource }),
    "Restores one file to git's committed (HEAD) or staged (INDEX) version; what it held is recorded first.",
  ),
  restoreHunk: call<RestoreFileResult>()(
    z.strictObject({ projectId, path: projectPath, versionId, hunk: hunkRange, diskHash: sha256Hex }),
    "Restores one change of the diff between a version and the file on disk (diskHash: the compared file's SHA-256; FILE_CHANGED when it no longer holds those bytes); recorded first, undone like any restore.",
  ),
  previewRestore: call<RestorePreview>()(z.strictObject(restoreScope), 'What restoring a snapshot (or a folder of it) would write, recreate and leave alone.'),
  restoreSnapshot: call<RestoreSnapshotResult>()(
    z.strictObject({ ...restoreScope, dryRun: z.boolean().default(false), operationId: operationId.optional() }),
    'Restores a snapshot or a folder of it; with dryRun only the preview. Undo: restore the snapshot before it.',
  ),
  undoRestore: call<RestoreSnapshotResult>()(
    z.strictObject({ projectId, snapshotId, dryRun: z.boolean().default(false), operationId: operationId.optional() }),
    'Undoes the restore recorded as snapshotId, at any later time: only the paths it changed go back to how the snapshot just before it held them (files it added are deleted, recorded first); with dryRun only the preview.',
  ),
  materializeSnapshot: call<MaterializeResult>()(
    z.strictObject({ projectId, snapshotId, into: folderPath, operationId: operationId.optional(), keepSpecialModes }),
    'Writes a snapshot into a new or empty folder (FOLDER_NOT_EMPTY otherwise): exact bytes, modes and links; the project is not touched.',
  ),
  exportHistory: call<ExportResult>()(
    z.strictObject({ projectId, to: folderPath, since: snapshotId.optional(), operationId: operationId.optional(), skipDamaged: z.boolean().optional() }),
    "Writes the project's history (or the part after since) as one bundle to a file, whole or not at all (docs/BUNDLE.md); contents found damaged or missing refuse it unless skipDamaged, which leaves them out and lists them (leftOut).",
  ),
  importHistory: call<ImportResult>()(
    z.strictObject({ from: folderPath, as: folderPath.optional(), operationId: operationId.optional() }),
    'Reads a bundle file into the history of the folder it was recorded at, or of `as`: every blob checked, the index written last.',
  ),
  rescan: call<RescanResult>()(
    z.strictObject({ projectId, operationId: operationId.optional() }),
    'Compares the folder with the history and records what changed.',
  ),

  createCheckpoint: call<SnapshotInfo>()(
    z.strictObject({ projectId, label }),
    'A named snapshot of the project as it is now (listed by log with kind "checkpoint").',
  ),
  deletedFiles: call<DeletedFile[]>()(z.strictObject({ projectId }), 'Paths whose latest version is a deletion.'),
  search: call<SearchResult>()(
    z.strictObject({
      projectId,
      /** Plain text (a substring) unless regex. */
      query: z.string().min(1, 'the search text is empty').max(1000),
      regex: z.boolean().default(false),
      /** Case is ignored unless set. */
      caseSensitive: z.boolean().default(false),
      /** Only paths matching this glob (no slash: names at any depth; `**` spans folders). */
      path: z.string().min(1).max(1000).optional(),
      /** Only versions recorded at or after this time (milliseconds since the epoch). */
      since: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
      /** The most hits answered (newest first); truncated says when more exist. */
      limit: z.number().int().min(1).max(10_000).default(500),
      operationId: operationId.optional(),
    }),
    'Every version ever recorded that holds the text: one hit per file and content, newest first, with where the text is and whether the file still holds it.',
  ),
  storeStats: call<StoreStats>()(
    z.strictObject({ projectId, largest: z.number().int().min(0).max(1000).default(20) }),
    "The history store's blobs, bytes as the files are and on disk, compression and dedupe savings, blobs by form, versions the budget holds, and largest files.",
  ),
  changeDensity: call<ChangeDensity>()(
    z.strictObject({ projectId, path: projectPath.optional(), utcOffsetMinutes }),
    "How much changed per hour or day (days when the history spans more than 14): every snapshot, or one file's versions through its renames; only buckets holding a change, each with its newest snapshot (and version).",
  ),
  storeGrowth: call<StoreGrowth>()(
    z.strictObject({ projectId, utcOffsetMinutes }),
    "The store's size over time, per hour or day: bytes on disk and as the files are, summed from the start, each blob counted from the first snapshot naming it.",
  ),
  pins: call<Pins>()(z.strictObject({ projectId }), 'The pinned snapshots and versions of a project (no prune removes them).'),
  setPin: call<Pins>()(
    z.union([z.strictObject({ projectId, snapshotId, pinned: z.boolean() }), z.strictObject({ projectId, versionId, pinned: z.boolean() })]),
    'Pins or unpins a snapshot or a version; answers with every pin of the project.',
  ),
  prune: call<PruneResult>()(
    z.strictObject({ projectId, dryRun: z.boolean().default(false) }),
    'Thins the history by the retention policy and the budget; with dryRun only says, for every snapshot, whether it would go and why.',
  ),
  retentionStatus: call<RetentionStatus>()(
    z.strictObject({ projectId, holders: z.number().int().min(0).max(200).default(10) }),
    'The history against its budget: bytes stored and waiting to be deleted, the policy, the pins, and the files whose versions hold the most bytes.',
  ),
  remoteStatus: call<RemoteStatus[]>()(
    z.strictObject({ projectId }),
    "Each remote's state for the project: up to date, N snapshots behind, never pushed, or the last push's error.",
  ),
  pull: call<PullResult>()(
    z.strictObject({
      projectId,
      remote: z
        .string()
        .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/)
        .optional(),
      operationId: operationId.optional(),
    }),
    "Brings other machines' new snapshots of the project in from a remote (the only one when none is named): history rows only, the folder is not changed.",
  ),
  verify: call<VerifyResult>()(
    z.strictObject({ projectId, operationId: operationId.optional(), repair: z.boolean().default(false), checkRemote: z.boolean().default(false) }),
    "Re-hashes every stored blob and names the versions of any missing or corrupt one; with repair, writes those blobs again from files of the folder that still hold their bytes, and lists them as repaired. Blobs only a remote holds (a clone's older versions) are counted apart, not missing; with checkRemote the remote is asked whether it still holds them.",
  ),

  useRemoteCredentials: call<null>()(
    useRemoteCredentialsSchema,
    "Main hands the history process a remote's credentials from the OS keychain (kept in memory only, used by pushes and fetches of that remote), or null to drop them. The CLI and the browser host use the AWS environment or profile instead.",
  ),
  dataFolder: call<{ path: string }>()(
    z.strictObject({}),
    'Where this history process keeps config.json and every history (main keeps the keychain-sealed credentials file there).',
  ),

  getConfig: call<ConfigView>()(z.strictObject({}), 'Settings and known projects (with the error when config.json is corrupt).'),
  editConfig: call<ConfigView>()(
    z.strictObject({
      settings: settingsSchema.partial().optional(),
      projects: z.array(projectEditSchema).max(1000).optional(),
    }),
    'Changes settings and known projects in one edit; refused while config.json is corrupt.',
  ),

  cancel: call<CancelResult>()(z.strictObject({ operationId }), 'Stops a running operation; it ends with CANCELLED.'),

  recordingStatus: call<RecordingStatus>()(z.strictObject({}), 'Whether every known project is being recorded now, or recording is paused (and until when).'),
  pauseRecording: call<RecordingStatus>()(
    z.strictObject({
      forMs: z
        .number()
        .int()
        .min(1000)
        .max(7 * 86_400_000)
        .nullable(),
    }),
    'Pauses recording of every project (each open change group is written first) for forMs, or until resumed (null); the changes made meanwhile are caught up when it resumes.',
  ),
  resumeRecording: call<RecordingStatus>()(z.strictObject({}), 'Resumes recording after a pause: each project is caught up by a rescan, then watched again.'),
} as const;

export type Calls = typeof CALLS;
export type CallName = keyof Calls;
/** What a caller sends (defaults may be left out). */
export type RequestOf<N extends CallName> = z.input<Calls[N]['request']>;
/** What the handler receives after validation (defaults filled in). */
export type ParsedRequestOf<N extends CallName> = z.output<Calls[N]['request']>;
export type ResponseOf<N extends CallName> = Calls[N] extends CallSpec<z.ZodType, infer R> ? R : never;

export const CALL_NAMES: readonly CallName[] = CALL_NAME_LIST;

export function isCallName(value: unknown): value is CallName {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(CALLS, value);
}

/** What the app's menus and command line ask the viewer to do. */
export type AppCommand =
  | { command: 'openFolder'; path: string }
  | { command: 'closeProject' }
  | { command: 'showOpenFolder' }
  // File > Export History… and Import History…: the viewer runs its own actions.
  | { command: 'exportHistory' }
  | { command: 'importHistory' }
  // The first close of the last window: the viewer says that recording goes on, and how to quit.
  | { command: 'closeNotice' }
  // A hindsight://open link (shared/openLink.ts): a file of a known project, at a line.
  | ({ command: 'openLink' } & ViewLink);

interface EventSpec<Payload> {
  doc: string;
  readonly payload?: Payload;
}

function event<Payload>(doc: string): EventSpec<Payload> {
  return { doc };
}

// Events: all but connection and appCommand come from the history process (the engine's
// electron/history/engineEvents.ts, and the recorder's pause switch), fired where the thing
// happens; the dispatcher forwards them unchanged. connection and appCommand come from the bridge
// and the Electron main process.
export const EVENTS = {
  progress: event<Progress & { operationId: string | null }>('Progress of a first copy, rescan, restore or verify (throttled; always one with phase "done").'),
  snapshot: event<{ projectId: string; snapshot: SnapshotInfo; effect?: SnapshotEffect }>(
    "A new snapshot was recorded; effect: what it changed (absent for another machine's snapshots: anything may have).",
  ),
  projectState: event<{ projectId: string; root: string; state: ProjectState; detail: string | null }>(
    "A project's folder changed state: present, moved, gone, replaced, or its config is corrupt.",
  ),
  error: event<{ projectId: string | null; error: HindsightErrorData }>('A failure outside any call (a watcher, a background rescan).'),
  connection: event<{ state: 'lost' | 'restored' }>(
    'Sent by the bridge, not the history process: it died (calls in flight fail with DISCONNECTED) or is back.',
  ),
  appCommand: event<AppCommand>('Sent by the Electron main process: a menu item, a folder on the command line or a second instance.'),
  recording: event<RecordingStatus>('Recording was paused or resumed, or the number of projects recorded changed.'),
} as const;

export type Events = typeof EVENTS;
export type EventName = keyof Events;
export type EventPayload<N extends EventName> = Events[N] extends EventSpec<infer P> ? P : never;
/** One event as listeners receive it. */
export type HindsightEvent = { [N in EventName]: { event: N; payload: EventPayload<N> } }[EventName];

/** The events the history engine fires (the rest come from the bridge and the app). */
export const ENGINE_EVENT_NAMES = ['progress', 'snapshot', 'projectState', 'error', 'recording'] as const satisfies readonly EventName[];
export type EngineEventName = (typeof ENGINE_EVENT_NAMES)[number];
export type EngineEvent = Extract<HindsightEvent, { event: EngineEventName }>;

// The zod-free name lists (shared/contract/names.ts) must match the catalogues exactly.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const callNamesMatch: Same<(typeof CALL_NAME_LIST)[number], CallName> = true;
const eventNamesMatch: Same<(typeof EVENT_NAME_LIST)[number], EventName> = true;
void callNamesMatch;
void eventNamesMatch;

export type { Result } from './contract/result.js';
export type * from './contract/values.js';
export type * from './contract/timeDensity.js';
export type { Settings, ProjectEdit } from './contract/config.js';
export type { GitFileVersion, GitVersions } from './git.js';
