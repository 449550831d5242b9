import type { UnreadablePath } from '../../../shared/history.js';
import type { Progress } from '../../../shared/progress.js';
import { isUnderPrefix } from '../../../shared/projectPath.js';
import { throttleProgress, type ProgressSink } from '../progressThrottle.js';
import type { ProjectStore } from '../project/projectStore.js';
import type { StatTable } from '../statTable.js';
import type { CopyPool } from '../store/copyPool.js';
import { count } from '../trace.js';
import { byPath, unreadableReason } from '../walk/unreadable.js';
import { walkFolder, type WalkEntry } from '../walk/walkFolder.js';
import { walkedFolders, type WalkedFolders } from '../walk/walkedFolders.js';
import { commitChangeGroup, type MassChangeRule } from './changeGroup.js';
import type { BeforeCommitHook } from './commitHooks.js';
import { MissingDirCache, type MissingDirStrategy } from './missingDirCache.js';
import { againIfCollected, prepareChanges, type PreparedChanges } from './recordPaths.js';

// Brings the history up to date with the disk: on every open, and whenever the watcher is in
// doubt. One walk finds every present file (it lstats each one anyway); its stat is compared with
// the stat cache, and only what differs is hashed, on the copy workers. Recorded paths the walk
// did not find (the stat cache's, and those of versions no scan has seen yet: an import or a clone
// writes versions without stat rows) are checked in sorted order through the missing-folder cache, so a deleted folder
// of thousands of files costs a handful of lstats. A file whose mtime or ctime lies within the racy
// window of the previous scan is hashed anyway: it may have changed again within the timestamp's
// resolution after it was filed.

export const RACY_WINDOW_MS = 2000;

/** Meta: the newest version id whose paths a finished rescan has looked for on the disk. */
const CHECKED_VERSIONS = 'rescan.checkedVersions';

export interface RescanOptions {
  exclude?: readonly string[];
  /** New files larger than this are not recorded; files with a history stay tracked whatever their size. */
  maxFileSize?: number | null;
  signal?: AbortSignal;
  onProgress?: ProgressSink;
  pool?: CopyPool;
  strategy?: MissingDirStrategy;
  racyWindowMs?: number;
  beforeCommit?: BeforeCommitHook;
  massChange?: MassChangeRule;
  /**
   * The title of the snapshot it records, asked only then (e.g. a catch-up's span, read as the
   * writer), told when the latest of the changed files changed (its ctime; undefined when a file
   * was deleted: when is not known).
   */
  label?: (lastChangeAt: number | undefined) => string | null;
  /**
   * Writes nothing when nothing was hashed and nothing changed (the watcher's periodic check): the
   * scan time stays that of the last scan that wrote, which the racy rule then measures from; no
   * file was within its window, so none is now.
   */
  keepWhenUnchanged?: boolean;
  /** Told each folder just before the walk lists it, for a watch placed during the walk (walk/walkFolder.ts); the outcome then has no `walked`. */
  onFolder?: (path: string) => void;
}

/** What a rescan did, with the paths it found changed (the engine answers callers with the contract's RescanResult). */
export interface RescanOutcome {
  snapshotId: number | undefined;
  checkpointId: number | undefined;
  changed: string[];
  /** Paths compared: every walked file plus every recorded path the walk did not find. */
  paths: number;
  /** Paths whose stat differed (or were racy) and were hashed. */
  hashed: number;
  ms: number;
  /** What could not be read, sorted by path: recorded as it was before, tried again next time. */
  unreadable: UnreadablePath[];
  /** Paths ignore rules left out (a folder not entered counts once). */
  ignored: number;
  /** The folders the walk listed: a watch set up next starts from them (walk/walkedFolders.ts); none when the watch was placed during the walk. */
  walked: WalkedFolders | undefined;
}

export async function rescan(store: ProjectStore, options: RescanOptions = {}): Promise<RescanOutcome> {
  const started = performance.now();
  const scanStartedAt = Date.now();
  const racySince = Number(store.index.getMeta('lastScanAt') ?? 0) - (options.racyWindowMs ?? RACY_WINDOW_MS);
  const progress = throttleProgress(options.onProgress);
  const report = (phase: Progress['phase'], done: number, total: number): Progress => progressOf(store.projectId, phase, done, total);
  progress.finish(report('rescan', 0, 0));

  const folderModes = new Map<string, number>();
  const unreadable: UnreadablePath[] = [];
  const ignored: string[] = [];
  const table = store.index.statCache.statTable();
  // A watch placed as the walk goes needs no list of what it walked.
  const listedFolders = options.onFolder ? undefined : walkedFolders(scanStartedAt, options.racyWindowMs ?? RACY_WINDOW_MS, table);
  // A file the walk found as the cache holds it is only marked: no entry, no string, no map entry.
  let unchanged = 0;
  const walked = await walkFolder(store.root, {
    walked: listedFolders,
    onFolder: options.onFolder,
    tracked: await store.git.tracked(),
    ignored,
    exclude: options.exclude,
    signal: options.signal,
    maxFileSize: options.maxFileSize,
    skip: store.dataFolder,
    folderModes,
    unreadable,
    unchanged: (path, st) => {
      const row = table.rowOf(path);
      if (row === undefined || !table.holdsFile(row, st) || st.mtimeMs >= racySince || st.ctimeMs >= racySince) return false;
      table.seeUnchanged(row);
      unchanged++;
      return true;
    },
  });
  count('rescan.paths', unchanged);
  // Recorded paths inside a folder that cannot be listed are not gone: they are left as recorded.
  const unlisted = unreadable.map((u) => u.path);
  // Paths the history holds that no scan has seen (an import or a clone writes versions, not stat
  // rows): looked for like the cache's keys, so one missing from the disk becomes a deletion.
  const uncached = store.index.statCache.uncachedPaths(Number(store.index.getMeta(CHECKED_VERSIONS) ?? 0));
  count('rescan.uncached', uncached.length);

  const { suspects, known, unseen } = findSuspects(walked, { store, table, racySince, strategy: options.strategy, unlisted, uncached, unreadable });
  options.signal?.throwIfAborted();

  progress.finish(report('copy', 0, suspects.length));
  let scanned: UnreadablePath[] = [];
  const group = await againIfCollected(async () => {
    const prepared = await prepareChanges(store, suspects, known, options.pool, undefined, options.signal);
    // Cancelled while copying: nothing of this scan is recorded (its blobs wait for the next one).
    options.signal?.throwIfAborted();
    store.assertFolderUnchanged();
    progress.finish(report('commit', suspects.length, suspects.length));
    scanned = prepared.unreadable;
    return commitChangeGroup(store, prepared, {
      beforeCommit: options.beforeCommit,
      massChange: options.massChange,
      label: prepared.versions.length > 0 ? options.label?.(lastChangeAt(prepared)) : undefined,
    });
  });
  // Folders new or with another mode: with the group's snapshot, or with the latest when no file
  // changed. A walk that listed every folder also tells which recorded folders are gone. An empty
  // folder made, or a folder removed, with no file changing is a change of its own: its snapshot
  // keeps the earlier ones true. (Folders holding files and recorded only now, in a history from
  // before folders were, go with the latest.)
  const folderSnapshot = recordFolders(store, group.snapshotId, { walked, table, folderModes, complete: unreadable.length === 0 });
  const unchangedScan = suspects.length === 0 && group.snapshotId === undefined && folderSnapshot === undefined;
  if (options.keepWhenUnchanged === true && unchangedScan) count('rescan.keptUnchanged');
  else store.index.setMeta('lastScanAt', String(scanStartedAt));
  // Every path of the history is now in the stat cache or a deletion (this scan held the writer
  // throughout); something that could not be looked at is looked for again next time.
  const checked = String(store.index.statCache.newestVersionId());
  if (unreadable.length === 0 && scanned.length === 0 && store.index.getMeta(CHECKED_VERSIONS) !== checked) store.index.setMeta(CHECKED_VERSIONS, checked);
  progress.finish(report('done', suspects.length, suspects.length));
  return {
    snapshotId: group.snapshotId,
    checkpointId: group.checkpointId,
    changed: group.changed,
    paths: unchanged + walked.length + unseen.length,
    hashed: suspects.length,
    ms: Math.round(performance.now() - started),
    unreadable: byPath([...unreadable, ...scanned]),
    ignored: ignored.length,
    walked: listedFolders,
  };
}

interface SuspectSearch {
  store: ProjectStore;
  table: StatTable;
  racySince: number;
  strategy: MissingDirStrategy | undefined;
  /** Folders that could not be listed. */
  unlisted: readonly string[];
  /** Recorded paths no scan has seen. */
  uncached: readonly string[];
  /** A recorded path that cannot be looked at is added here. */
  unreadable: UnreadablePath[];
}

/**
 * The paths to hash: walked files whose stat differs from the cache's (or is racy), and recorded
 * paths the walk did not see, looked for through the missing-folder cache. `known` holds each
 * one's entry (undefined: gone); `unseen` is every recorded path the walk did not see.
 */
function findSuspects(
  walked: readonly WalkEntry[],
  search: SuspectSearch,
): { suspects: string[]; known: Map<string, WalkEntry | undefined>; unseen: string[] } {
  const { store, table, racySince, unlisted, uncached, unreadable } = search;
  const suspects: string[] = [];
  const known = new Map<string, WalkEntry | undefined>();
  const consider = (entry: WalkEntry) => {
    const row = table.rowOf(entry.path);
    if (row !== undefined) table.see(row);
    if (row !== undefined && table.holdsStamp(row, entry) && !isRacy(entry, racySince)) return;
    suspects.push(entry.path);
    known.set(entry.path, entry);
  };
  // A restore temp left by a killed restore was removed when this writer took the store (its
  // journal names it); anything still named like one is a user's file and is recorded as such.
  for (const entry of walked) {
    count('rescan.paths');
    consider(entry);
  }
  // Recorded paths the walk did not see: gone, or present but no longer walked (now ignored).
  const checker = new MissingDirCache(store.root, search.strategy);
  const unseen = [...table.unseenPaths(), ...uncached.filter((path) => !known.has(path))].sort();
  for (const path of unseen) {
    if (unlisted.some((folder) => isUnderPrefix(path, folder))) continue;
    // Recorded inside the data folder (by a Hindsight that did not skip it): no longer recorded.
    let entry: WalkEntry | undefined;
    try {
      entry = store.dataFolder !== undefined && isUnderPrefix(path, store.dataFolder) ? undefined : checker.check(path);
    } catch (error) {
      const reason = unreadableReason(error, 'file');
      if (reason === undefined) throw error;
      unreadable.push({ path, reason });
      continue;
    }
    if (entry) consider(entry);
    else {
      suspects.push(path);
      known.set(path, undefined);
    }
  }
  return { suspects, known, unseen };
}

interface WalkedFolderModes {
  walked: readonly WalkEntry[];
  table: StatTable;
  folderModes: Map<string, number>;
  /** Every folder was listed, so a recorded folder not among them is gone. */
  complete: boolean;
}

/** Records the folders' modes; answers the snapshot of folders made or removed with no file changing, if there is one. */
function recordFolders(store: ProjectStore, snapshotId: number | undefined, walk: WalkedFolderModes): number | undefined {
  const { walked, table, folderModes, complete } = walk;
  const folders = snapshotId === undefined ? store.index.folderModes.folderChanges(folderModes, complete) : { added: [], gone: [] };
  // Which folders hold nothing is asked of every walked path: only when a folder is new.
  if (folders.added.length > 0) folders.added = folders.added.filter(emptyIn(walkedPaths(walked, table), folderModes));
  const folderSnapshot =
    folders.added.length + folders.gone.length > 0
      ? store.index.commitSnapshot({ snapshot: { kind: 'change', label: folderChangeLabel(folders) }, versions: [], blobs: [] })
      : undefined;
  const modesAt = snapshotId ?? folderSnapshot ?? store.index.snapshotReads.latestSnapshotId();
  if (modesAt !== undefined) store.index.folderModes.recordFolderModes(modesAt, folderModes, complete);
  return folderSnapshot;
}

function progressOf(projectId: string, phase: Progress['phase'], done: number, total: number): Progress {
  return { operation: 'rescan', projectId, phase, filesDone: done, filesTotal: total, bytesDone: 0, bytesTotal: 0 };
}

/** Every file the walk found: those it returned, and those it found unchanged (seen in the table). */
function* walkedPaths(walked: readonly WalkEntry[], table: StatTable): Generator<string> {
  for (const entry of walked) yield entry.path;
  yield* table.seenPaths();
}

/** Whether a folder holds no walked file and no other walked folder. */
function emptyIn(walked: Iterable<string>, folders: ReadonlyMap<string, number>): (folder: string) => boolean {
  count('rescan.emptyFolderCheck');
  const holding = new Set<string>();
  const noteParents = (path: string) => {
    for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) holding.add(path.slice(0, slash));
  };
  for (const path of walked) noteParents(path);
  for (const folder of folders.keys()) noteParents(folder);
  return (folder) => !holding.has(folder);
}

/** "Folder added: assets/icons", "Folder removed: logs", "2 folders added, 1 removed". */
export function folderChangeLabel({ added, gone }: { added: readonly string[]; gone: readonly string[] }): string {
  if (added.length + gone.length === 1) return added.length === 1 ? `Folder added: ${added[0]}` : `Folder removed: ${gone[0]}`;
  const words = [added.length > 0 ? `${added.length} folder${added.length === 1 ? '' : 's'} added` : '', gone.length > 0 ? `${gone.length} removed` : ''];
  return words
    .filter(Boolean)
    .join(', ')
    .replace(/^(\d+) removed$/, '$1 folders removed');
}

/** The latest ctime (ms) of the files a change group writes; undefined when it deletes one (a deletion has no time). */
function lastChangeAt(prepared: PreparedChanges): number | undefined {
  if (prepared.versions.some((v) => v.hash === null)) return undefined;
  const changed = new Set(prepared.versions.map((v) => v.path));
  let last = 0;
  for (const row of prepared.stats) if (changed.has(row.path)) last = Math.max(last, Number(BigInt(row.ctimeNs) / 1_000_000n));
  return last;
}

/** Milliseconds are enough here: the window is seconds wide. */
function isRacy(entry: WalkEntry, racySince: number): boolean {
  return Number(entry.mtimeNs) / 1e6 >= racySince || Number(entry.ctimeNs) / 1e6 >= racySince;
}
