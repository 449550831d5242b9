import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { exportBundleTo, importBundleFrom, type BundleSource, type BundleTarget } from './bundle/bundleTransfer.js';
import type {
  ConfigView,
  DeletedFile,
  DiffInputs,
  ExportResult,
  FileBytes,
  FolderLevel,
  ImportResult,
  MaterializeResult,
  OpenProjectResult,
  ParsedRequestOf,
  Pins,
  PruneResult,
  RetentionStatus,
  ProjectSummary,
  RescanResult,
  HunkRange,
  RestoreFileResult,
  RestorePreview,
  RemoteStatus,
  RestoreSnapshotResult,
  SearchResult,
  StoreStats,
  CompactResult,
} from '../../shared/contract.js';
import { HindsightError, isHindsightError } from '../../shared/errors.js';
import type { GitVersions } from '../../shared/git.js';
import type {
  DiskState,
  FileEntry,
  GitSource,
  IndexRepairResult,
  SnapshotChange,
  SnapshotInfo,
  SnapshotSummary,
  VersionInfo,
  VerifyResult,
} from '../../shared/history.js';
import type { Progress } from '../../shared/progress.js';
import { configEdit, configView } from './config/configView.js';
import { configStoreFor, type ConfigStore } from './config/configStore.js';
import { forgetProject, registerProject } from './config/projectEdits.js';
import type { FirstCopyOptions } from './copy/firstCopy.js';
import { EngineEvents } from './engineEvents.js';
import { errorData } from './errorData.js';
import { GitContext } from './git/gitContext.js';
import { gitVersions } from './git/gitVersions.js';
import { dataDirWithin } from './project/dataDirPlace.js';
import { projectIdOf } from './project/projectId.js';
import { bringBackIndex } from './project/repairIndex.js';
import { projectStoreDir } from './store/storeLayout.js';
import type { OpenProject } from './project/openProject.js';
import type { WriterWait } from './project/writerLock.js';
import { ProjectRegistry } from './project/projectRegistry.js';
import { reportOpenFailure, sweepAndReport } from './project/projectStates.js';
import { registerProvisionally, type ProvisionalProject } from './project/provisionalProject.js';
import { relocateProject } from './project/relocateProject.js';
import { resolveFolder, type ProjectStore } from './project/projectStore.js';
import { localBlobSource, materializeSnapshot, type BlobSource } from './restore/materializeSnapshot.js';
import type { PlanOptions } from './restore/planRestore.js';
import { AutoPrune } from './retention/autoPrune.js';
import { prune } from './retention/prune.js';
import { retentionStatus } from './retention/retentionStatus.js';
import { setPin, type PinTarget } from './retention/setPin.js';
import type { ExecuteOptions } from './restore/restoreSnapshot.js';
import { assertProjectPath, isInside } from './restore/safeTarget.js';
import { assertOutsideProject } from './restore/outsideProject.js';
import { SpecialModes } from './restore/specialModes.js';
import { backgroundCloseWanted, type BackgroundCloseSetting } from './restore/backgroundCloser.js';
import { SearchBuilder } from './search/searchBuilder.js';
import type { SearchRequest } from './search/searchHistory.js';
import { searchOnThread } from './search/searchThread.js';
import { storeStats } from './stats/storeStats.js';
import { compactStore } from './compact/compactStore.js';
import { BackgroundCompaction } from './compact/backgroundCompaction.js';
import { sharedCopyPool } from './store/copyPool.js';
import { verifyStore } from './verify/verifyStore.js';
import type { BeforeCommitHook } from './versions/commitHooks.js';
import { headCheckpoint } from './versions/headCheckpoint.js';
import { ProjectRecorder, type WatchOptions } from './versions/projectRecorder.js';
import { watchLimitError } from './watch/watchLimit.js';
import type { RescanOptions } from './versions/rescan.js';
import { ignoredPaths } from './walk/ignoredPaths.js';
import { diskState } from './versions/diskState.js';
import { diffInputs, gitVersionStream, readVersion, versionStream, type DiffSide } from './versions/versionBytes.js';
import { pushHistory, type PushHistoryOptions } from './remote/push/pushHistory.js';
import type { PushResult } from './remote/push/pushProject.js';
import { remoteIdentity, requireRemote } from './remote/remoteConfig.js';
import { machineIdentity } from './remote/machineIdentity.js';
import { remoteProjectId } from './remote/remoteProject.js';
import type { ArchiveTarget } from './retention/archiveThinned.js';
import { AutoPush } from './remote/push/autoPush.js';
import { remoteStatuses } from './remote/remoteStatus.js';
import { cloneProject, type CloneOptions, type CloneResult } from './remote/fetch/cloneProject.js';
import { pullProject, type PullOptions, type PullResult } from './remote/fetch/pullProject.js';
import { fetchMissingBlobs } from './remote/fetch/bytesOnDemand.js';
import { remoteOnlyBlobs } from './remote/remoteOnlyBlobs.js';
import { emptyCloneFolder, prepareCloneFolder } from './remote/fetch/cloneFolder.js';
import { isProjectId } from './remote/layout/remoteKeys.js';
import type { RemoteConfig } from './config/configSchema.js';

// The history engine of one process, and the one seam its callers (the dispatcher, the CLI, the
// browser host, the tests) cross. It knows projects by projectId: one record per open project
// (project/projectRegistry.ts) holding its store, database handle, watcher and write queue. Its
// methods answer with the contract's value types (shared/contract/values.ts, shared/history.ts),
// unchanged all the way to the viewer and the CLI's --json. What it records it announces on
// `events` (snapshot, progress, projectState, error), fired where the thing happens.
//
// Adding a call: a method here answering with a contract type (the work in a module of its
// folder), a line in shared/contract.ts, and its route in dispatcher/routes.ts (the compiler
// insists). Plain Node: no Electron anywhere below here.

/**
 * What any long operation takes: the caller's id (its progress events carry it), a signal that
 * cancels it, and who to tell when another process is writing the same history and it waits.
 */
export interface OperationOptions extends Pick<WriterWait, 'onWait'> {
  operationId?: string;
  signal?: AbortSignal;
}

export interface OpenOptions extends OperationOptions, Pick<FirstCopyOptions, 'exclude' | 'pool' | 'cloneMode'> {
  /** Record changes live from now on (the app and the browser host do; the CLI's one-shot commands do not). */
  watch?: boolean;
  /** The user confirmed a first copy past the largeFolderFiles / largeFolderBytes settings. */
  confirmLarge?: boolean;
}

/** A blob's hash as the index answers it: absent for a link or a missing row. */
type Hashish = string | null | undefined;

function isHash(hash: Hashish): hash is string {
  return typeof hash === 'string';
}

export type EngineRescanOptions = OperationOptions & Omit<RescanOptions, 'signal' | 'onProgress' | 'beforeCommit'>;

export interface SnapshotRestoreOptions extends OperationOptions, PlanOptions, Pick<ExecuteOptions, 'closer' | 'backgroundClose'> {
  /** Only the preview (nothing is written or recorded). */
  dryRun?: boolean;
}

export interface MaterializeOptions extends OperationOptions {
  /** Where the bytes come from (default: the project's store). */
  source?: BlobSource;
  /** The backgroundClose setting for this run; HINDSIGHT_BACKGROUND_CLOSE still wins over it. */
  backgroundClose?: BackgroundCloseSetting;
  /** Keep setuid/setgid/sticky bits that came from another history (restore/specialModes.ts). */
  keepSpecialModes?: boolean;
}

export class HistoryEngine {
  /** config.json of this data folder: known projects and settings. */
  readonly config: ConfigStore;
  /** Every snapshot recorded, progress of long work, folder states, failures outside any call. */
  readonly events = new EngineEvents();
  private readonly projects: ProjectRegistry;
  private readonly recorder: ProjectRecorder;
  /** The app's own prunes: after a first copy, then about hourly, when nothing copies. */
  readonly autoPrune: AutoPrune;
  /** One prune at a time per project in this process (the automatic one and a click). */
  private readonly pruning = new Map<string, Promise<unknown>>();
  private autoPush: AutoPush | undefined;

  constructor(readonly dataDir: string) {
    this.config = configStoreFor(dataDir);
    this.projects = new ProjectRegistry(dataDir, () => this.config.loadConfig().config.projects, {
      onSnapshot: (projectId, snapshot, effect) => {
        // New versions may name blobs the search index has not seen: the builder looks again.
        this.projects.find(projectId)?.searchBuilder?.poke();
        this.events.emit({ event: 'snapshot', payload: { projectId, snapshot, ...(effect ? { effect } : {}) } });
      },
    });
    this.recorder = new ProjectRecorder({
      exclude: () => this.settings().excludePatterns,
      maxFileSize: () => this.settings().maxFileSize,
    });
    // A checkpoint of the state before git moved HEAD, ahead of the group that records git's rewrite.
    this.recorder.addBeforeCommit(async (store) => (await headCheckpoint(store))?.after);
    this.autoPrune = new AutoPrune(
      () => sharedCopyPool().slots,
      (projectId) => this.prune(projectId),
      { onError: (projectId, error) => this.events.emit({ event: 'error', payload: { projectId, error: errorData(error) } }) },
    );
  }

  // --- projects

  /** The projectId of a folder (the CLI's way in); nothing is opened or copied. */
  locate(folder: string): string {
    return this.projects.locate(folder);
  }

  /** Opens a folder: its first copy when it has no history yet, else a rescan. */
  async open(folder: string, options: OpenOptions = {}): Promise<OpenProjectResult> {
    const started = performance.now();
    let project: OpenProject;
    let settings;
    let registeredNow: boolean;
    try {
      const root = resolveFolder(folder);
      dataDirWithin(root, this.dataDir); // a folder inside the data folder is refused before it is registered
      registeredNow = !this.config.loadConfig().config.projects.some((p) => p.id === projectIdOf(root));
      // Registered in config.json before anything is copied: a config that cannot be edited
      // (corrupt, unreadable, locked) stops the open here, before any store exists.
      ({ settings } = await this.config.editConfig(registerProject(root)));
      if (!options.pool) sharedCopyPool().slots.setLimit(settings.copyConcurrency);
      project = this.projects.get(this.projects.locate(folder));
    } catch (error) {
      await reportOpenFailure(this.config, this.projects.summaries(), folder, error, (event) => this.events.emit(event));
      throw error;
    }
    const exclude = [...settings.excludePatterns, ...(options.exclude ?? [])];
    const onProgress = this.progressTo(options.operationId);
    const largeFolder = options.confirmLarge ? undefined : { files: settings.largeFolderFiles, bytes: settings.largeFolderBytes };
    let opened;
    try {
      opened = await this.recorder.open(project, { ...options, exclude, maxFileSize: settings.maxFileSize, largeFolder, onProgress });
    } catch (error) {
      if (isHindsightError(error) && error.code === 'CONFIRM_LARGE_FOLDER') await this.unconfirmedLargeFolder(project, registeredNow);
      await reportOpenFailure(this.config, this.projects.summaries(), project.root, error, (event) => this.events.emit(event));
      throw error;
    }
    this.projects.markOpened(project);
    if (options.watch) {
      await this.startWatching(project);
      this.startBackgroundWork(project);
      // The app's own prunes: right after a first copy, else a few minutes after opening.
      this.autoPrune.start(project.projectId, 'firstCopy' in opened ? 0 : 5 * 60_000);
    }
    const { store } = project;
    const result =
      'firstCopy' in opened
        ? { ...opened.firstCopy, firstCopy: true }
        : {
            ...this.totals(store),
            ms: Math.round(performance.now() - started),
            firstCopy: false,
            unreadable: opened.rescan.unreadable,
            ignored: opened.rescan.ignored,
          };
    return { projectId: project.projectId, root: project.root, ...result, git: store.git.state(), project: this.projects.summary(project.projectId) };
  }

  /**
   * A first copy past the large-folder settings that was not confirmed leaves no trace: its blobs
   * were dropped, the project is forgotten again when this open registered it, and its store closed.
   */
  private async unconfirmedLargeFolder(project: OpenProject, registeredNow: boolean): Promise<void> {
    if (registeredNow) await this.config.editConfig(forgetProject(project.projectId)).catch(() => undefined);
    await this.projects.close(project.projectId);
  }

  /**
   * A known project's folder found at a new place (Locate…): its history moves there when it is
   * the very folder recorded (project/relocateProject.ts), then it is opened (a rescan).
   */
  async relocate(projectId: string, folder: string, options: OpenOptions = {}): Promise<OpenProjectResult> {
    const root = resolveFolder(folder);
    dataDirWithin(root, this.dataDir);
    await this.projects.close(projectId);
    const newId = await relocateProject(this.config, this.dataDir, projectId, root);
    if (newId !== projectId) this.projects.forget(projectId);
    return this.open(root, options);
  }

  /** Closes a project in this process: its watcher (after writing its open group), its store and its database handle. */
  closeProject(projectId: string): Promise<void> {
    this.autoPrune.stop(projectId);
    return this.projects.close(projectId);
  }

  /** Every known project; with check, each folder is looked at first (present, moved, gone). */
  async listProjects(options: { check?: boolean; signal?: AbortSignal } = {}): Promise<ProjectSummary[]> {
    if (options.check) await this.sweepProjects(options.signal);
    return this.projects.summaries();
  }

  /** Looks at every known project's folder now; a projectState event for each one that changed. */
  sweepProjects(signal?: AbortSignal): Promise<void> {
    return sweepAndReport(this.config, (event) => this.events.emit(event), signal);
  }

  // --- reading the history

  log(projectId: string): SnapshotInfo[] {
    return this.history(projectId).index.snapshots();
  }

  /** The snapshots of log, a page at a time (the CLI's log streams them). */
  logPages(projectId: string): Iterable<SnapshotInfo[]> {
    return this.history(projectId).index.snapshotPages();
  }

  /** What one snapshot changed, file by file, sorted by path. */
  snapshotChanges(projectId: string, snapshotId: number): SnapshotChange[] {
    const store = this.history(projectId);
    this.requireSnapshot(store, snapshotId);
    return store.index.snapshotChanges(snapshotId);
  }

  /** What a snapshot holds: its files, and how many changed since the checkpoint or first copy before it. */
  snapshotSummary(projectId: string, snapshotId: number): SnapshotSummary {
    const store = this.history(projectId);
    this.requireSnapshot(store, snapshotId);
    const mark = store.index.previousMark(snapshotId);
    return {
      snapshotId,
      files: store.index.filesPresentAt(snapshotId),
      changedSince: mark ? store.index.pathsChangedBetween(mark.id, snapshotId) : 0,
      since: mark ? { snapshotId: mark.id, kind: mark.kind } : null,
    };
  }

  files(projectId: string, at?: number): FileEntry[] {
    const store = this.history(projectId);
    if (at !== undefined) this.requireSnapshot(store, at);
    return store.index.filesAt(at);
  }

  /** The files of files(), a page at a time in path order (the CLI's files streams them). */
  filePages(projectId: string, at?: number): Iterable<FileEntry[]> {
    const store = this.history(projectId);
    if (at !== undefined) this.requireSnapshot(store, at);
    return store.index.filePages(at);
  }

  /** The empty folders of a snapshot (default: now, as recorded), with their recorded modes: part of it like its files. */
  emptyFolders(projectId: string, at?: number): { path: string; mode: number | null }[] {
    const store = this.history(projectId);
    if (at !== undefined) this.requireSnapshot(store, at);
    const snapshotId = at ?? store.index.latestSnapshotId();
    if (snapshotId === undefined) return [];
    return store.index.emptyFoldersAt(snapshotId).map((path) => ({ path, mode: store.index.folderModeAt(snapshotId, path) ?? null }));
  }

  /** One level of the tree: a folder's direct children ('' = the root), for a viewer that loads folders as they open. */
  folderLevel(projectId: string, folder: string, at?: number): FolderLevel {
    const store = this.history(projectId);
    if (at !== undefined) this.requireSnapshot(store, at);
    return store.index.folderLevel(folder.endsWith('/') ? folder.slice(0, -1) : folder, at);
  }

  /**
   * A file's versions, oldest first; with a limit only the newest `limit` (older than the version
   * `before` when given), so a long history is read and sent a page at a time.
   */
  versions(projectId: string, path: string, page: { limit?: number; before?: number } = {}): VersionInfo[] {
    assertProjectPath(path);
    const { index } = this.history(projectId);
    if (page.limit === undefined && page.before === undefined) return index.versionsOf(path);
    if (page.before !== undefined) {
      const from = index.version(page.before);
      if (!from || !index.inLineage(path, from))
        throw new HindsightError('VERSION_NOT_FOUND', `No version ${page.before} of ${path}.`, { path, versionId: page.before });
      // A version from before a rename: the page goes on along the path it was recorded at.
      return index.versionsPage(from.path, from.snapshotId, page.limit ?? Number.MAX_SAFE_INTEGER);
    }
    return index.versionsPage(path, undefined, page.limit ?? Number.MAX_SAFE_INTEGER);
  }

  /** At most maxBytes of a version (default: the latest with contents). */
  async readVersion(projectId: string, path: string, options: { versionId?: number; maxBytes: number }): Promise<FileBytes> {
    const store = this.history(projectId);
    await this.bytesOnDemand(store, [this.versionHash(store, path, options.versionId)]);
    return readVersion(store, path, options.versionId, options.maxBytes);
  }

  async diffInputs(projectId: string, path: string, before: DiffSide, after: DiffSide, maxBytes: number): Promise<DiffInputs> {
    assertProjectPath(path);
    const store = this.history(projectId);
    const sides = [before, after].map((side) => (side.kind === 'version' ? store.index.version(side.versionId)?.hash : undefined));
    await this.bytesOnDemand(store, sides);
    return diffInputs(store, path, before, after, maxBytes);
  }

  /** The file on disk now and which of its versions it is identical to. */
  diskState(projectId: string, path: string): Promise<DiskState> {
    assertProjectPath(path);
    return diskState(this.history(projectId), path);
  }

  /** Every byte of a version, streamed (the CLI's show). */
  async versionStream(projectId: string, path: string, versionId?: number): Promise<Readable> {
    const store = this.history(projectId);
    await this.bytesOnDemand(store, [this.versionHash(store, path, versionId)]);
    return versionStream(store, path, versionId);
  }

  /** Every byte of git's HEAD or INDEX version of a file (the CLI's `show --version HEAD`). */
  gitVersionStream(projectId: string, path: string, source: GitSource): Promise<Readable> {
    assertProjectPath(path);
    return gitVersionStream(this.history(projectId), path, source);
  }

  /** Paths whose latest version is a deletion. */
  /** What ignore rules leave out of the folder now (a folder not entered once, as 'path/'), sorted; tracked files never. */
  async ignored(projectId: string): Promise<string[]> {
    const { store, exclude } = this.record(projectId);
    return ignoredPaths(store.root, { exclude: exclude ?? this.settings().excludePatterns, tracked: await store.git.tracked(), skip: store.dataFolder });
  }

  deleted(projectId: string): DeletedFile[] {
    return this.history(projectId).index.deletedFiles();
  }

  storeStats(projectId: string, largest: number): StoreStats {
    const { searchMaxFileSize, historyBudget } = this.settings();
    return storeStats(this.history(projectId), largest, searchMaxFileSize, historyBudget);
  }

  /**
   * Every version ever recorded that holds the text (search/searchHistory.ts), on its own worker
   * thread (search/searchThread.ts); `signal` ends it at once (its caller went away).
   */
  search(projectId: string, request: SearchRequest, options: { signal?: AbortSignal } = {}): Promise<SearchResult> {
    return searchOnThread(this.history(projectId), request, this.settings().searchMaxFileSize, options.signal);
  }

  /**
   * Builds the search index now, in the foreground (the CLI's index command); what a killed build
   * committed is kept and not read again. Answers how far the index is, and how many blobs this build read.
   */
  async buildSearchIndex(projectId: string, options: OperationOptions = {}): Promise<{ indexedBlobs: number; totalBlobs: number; indexedNow: number }> {
    const store = this.history(projectId);
    const maxSize = () => this.settings().searchMaxFileSize;
    const builder = new SearchBuilder(store, { maxSize, onProgress: this.progressTo(options.operationId) });
    const stop = () => void builder.stop();
    options.signal?.addEventListener('abort', stop);
    try {
      builder.poke();
      await builder.settled();
    } finally {
      options.signal?.removeEventListener('abort', stop);
    }
    if (builder.failure) throw builder.failure;
    if (options.signal?.aborted) throw new HindsightError('CANCELLED', 'The search index build was stopped; what it indexed is kept.');
    return { ...store.index.searchProgress(maxSize()), indexedNow: builder.looked };
  }

  /** A file's committed (HEAD) version, and its staged one when that differs, from git. */
  gitVersions(projectId: string, path: string): Promise<GitVersions> {
    assertProjectPath(path);
    // Git alone answers this: a folder never opened gets no store made for it.
    const open = this.projects.find(projectId);
    return gitVersions(open?.store.git ?? new GitContext(this.projects.rootOf(projectId)), path);
  }

  /** The pinned snapshots and versions: no prune removes them. */
  pins(projectId: string): Pins {
    return this.history(projectId).index.pins();
  }

  /** Pins or unpins a snapshot or a version (of `path`, when given); answers with every pin. */
  setPin(projectId: string, target: PinTarget, pinned: boolean): Pins {
    if ('path' in target && target.path !== undefined) assertProjectPath(target.path);
    return setPin(this.history(projectId), target, pinned);
  }

  /**
   * Thins the history by the retention policy and the budget (settings); with dryRun only the plan,
   * snapshot by snapshot. With `archiveTo` (or the setting retention.archiveToRemote) what the policy
   * thins is moved to that remote instead of removed (retention/archiveThinned.ts).
   */
  prune(projectId: string, options: { dryRun?: boolean; now?: number; archiveTo?: string } = {}): Promise<PruneResult> {
    const store = this.history(projectId);
    const { retention, historyBudget } = this.settings();
    const { archiveTo = retention.archiveToRemote ?? undefined, ...rest } = options;
    const archive = archiveTo === undefined ? undefined : this.archiveTarget(projectId, store, archiveTo);
    const run = () => prune(store, { policy: retention, budget: historyBudget, ...rest, archive });
    const next = (this.pruning.get(projectId) ?? Promise.resolve()).then(run, run);
    const settled = next.catch(() => undefined);
    this.pruning.set(projectId, settled);
    void settled.then(() => this.pruning.get(projectId) === settled && this.pruning.delete(projectId));
    return next;
  }

  /** The history against its budget, the policy, the pins and the files holding the most bytes. */
  retentionStatus(projectId: string, holders = 10): RetentionStatus {
    const { retention, historyBudget } = this.settings();
    return retentionStatus(this.history(projectId), retention, historyBudget, holders);
  }

  /**
   * Re-hashes every blob; with `repair`, as the project's writer, writes damaged ones again from
   * the folder's files. Blobs only a remote holds (a clone's older versions) are counted apart;
   * with `checkRemote` the remote is asked whether it still holds them (one listing).
   */
  verify(projectId: string, options: OperationOptions & { repair?: boolean; checkRemote?: boolean } = {}): Promise<VerifyResult> {
    const progress = this.progressTo(options.operationId);
    const store = this.history(projectId);
    const remoteOnly = (absent: string[], signal?: AbortSignal) =>
      remoteOnlyBlobs(this.dataDir, store, this.config.loadConfig().config.remotes as RemoteConfig[], absent, {
        check: options.checkRemote,
        credentialsOf: this.credentialsOf,
        signal,
      });
    if (!options.repair) return verifyStore(store, progress, { signal: options.signal, remoteOnly });
    return this.recorder.verifyAndRepair(this.record(projectId), progress, { ...options, remoteOnly });
  }

  /**
   * Converts the store's raw blobs to the compressed form where it pays (compact/compactStore.ts),
   * batch by batch as the project's writer; stops at `signal`, and a next run goes on from there.
   * With dryRun, only counts what it would convert and save.
   */
  compact(projectId: string, options: OperationOptions & { dryRun?: boolean } = {}): Promise<CompactResult> {
    const project = this.record(projectId);
    return compactStore(project.store, {
      dryRun: options.dryRun,
      signal: options.signal,
      onProgress: this.progressTo(options.operationId),
      asWriter: (work) => project.serial(work, { signal: options.signal, onWait: options.onWait }),
      busy: () => project.writing(),
    });
  }

  /** The background compaction of a project opened for recording, when one was started. */
  backgroundCompaction(projectId: string): BackgroundCompaction | undefined {
    return this.projects.find(projectId)?.compaction;
  }

  /**
   * Brings back a project's index from its backup when it cannot be read (the damaged one is kept
   * beside it), opens the project (a rescan records what changed since) and re-checks every blob,
   * repairing what the folder still holds.
   */
  async repair(folder: string, options: OperationOptions = {}): Promise<IndexRepairResult> {
    const root = resolveFolder(folder);
    const projectId = projectIdOf(root);
    if (this.projects.find(projectId)) await this.projects.close(projectId);
    const swap = await bringBackIndex(projectStoreDir(this.dataDir, projectId), root);
    const opened = await this.open(root, { ...options, confirmLarge: true });
    const verify = await this.verify(opened.projectId, { ...options, repair: true });
    return { projectId: opened.projectId, root: opened.root, ...swap, verify };
  }

  // --- writing the history

  /** Brings the history up to date with the disk (what every open does). */
  async rescan(projectId: string, options: EngineRescanOptions = {}): Promise<RescanResult> {
    const { operationId, ...rest } = options;
    const r = await this.recorder.rescan(this.record(projectId), { ...rest, onProgress: this.progressTo(operationId) });
    return {
      projectId,
      snapshotId: r.snapshotId ?? null,
      checkpointId: r.checkpointId ?? null,
      changed: r.changed.length,
      paths: r.paths,
      hashed: r.hashed,
      ms: r.ms,
      unreadable: r.unreadable,
    };
  }

  /** What restoring a snapshot (or a folder or file of it) would write, recreate, leave and keep. */
  previewRestore(projectId: string, snapshotId: number, options: PlanOptions = {}): Promise<RestorePreview> {
    return this.recorder.preview(this.record(projectId), snapshotId, options);
  }

  /** keepSpecialModes: keep setuid/setgid/sticky bits of a version from another history (restore/specialModes.ts). */
  async restoreFile(projectId: string, path: string, versionId: number, options: { keepSpecialModes?: boolean } = {}): Promise<RestoreFileResult> {
    const project = this.record(projectId);
    await this.bytesOnDemand(project.store, [project.store.index.version(versionId)?.hash]);
    return this.recorder.restoreFile(project, path, versionId, options);
  }

  /** Restores one changed block of the diff between a version and the file on disk (restore/restoreHunk.ts). */
  async restoreHunk(projectId: string, path: string, versionId: number, hunk: HunkRange, diskHash: string): Promise<RestoreFileResult> {
    assertProjectPath(path);
    const project = this.record(projectId);
    await this.bytesOnDemand(project.store, [project.store.index.version(versionId)?.hash]);
    return this.recorder.restoreHunk(project, path, versionId, hunk, diskHash);
  }

  /** Restores a file to git's committed (HEAD) or staged (INDEX) version. */
  restoreFromGit(projectId: string, path: string, source: GitSource): Promise<RestoreFileResult> {
    assertProjectPath(path);
    return this.recorder.restoreFromGit(this.record(projectId), path, source);
  }

  /** Restores a snapshot (or a folder or file of it); with dryRun only its preview. Undo: restore undoSnapshotId. */
  async restoreSnapshot(projectId: string, snapshotId: number, options: SnapshotRestoreOptions = {}): Promise<RestoreSnapshotResult> {
    const started = performance.now();
    const { dryRun = false, operationId, ...rest } = options;
    const project = this.record(projectId);
    if (!dryRun && project.store.index.snapshot(snapshotId)) {
      const prefix = rest.prefix ? rest.prefix.replace(/\/+$/, '') : '';
      const wanted = project.store.index.filesAt(snapshotId).filter((f) => !prefix || f.path === prefix || f.path.startsWith(`${prefix}/`));
      await this.bytesOnDemand(
        project.store,
        wanted.map((f) => f.hash),
        rest.signal,
      );
    }
    if (dryRun) {
      const preview = await this.recorder.preview(project, snapshotId, rest);
      const added = preview.added.length;
      return {
        dryRun,
        preview,
        snapshotId: null,
        undoSnapshotId: null,
        targetSnapshotId: snapshotId,
        capturedSnapshotId: null,
        checkpointId: null,
        written: preview.write.length,
        recreated: preview.recreate.length,
        deleted: preview.delete.length,
        unchanged: preview.unchanged,
        kept: added - preview.delete.length,
        specialModesDropped: preview.specialModesDropped,
        ms: Math.round(performance.now() - started),
      };
    }
    const { backgroundClose } = this.settings();
    const r = await this.recorder.restore(project, snapshotId, { backgroundClose, ...rest, onProgress: this.progressTo(operationId) });
    return {
      dryRun,
      preview: null,
      snapshotId: r.snapshotId ?? null,
      undoSnapshotId: r.undoSnapshotId ?? null,
      targetSnapshotId: r.targetSnapshotId,
      capturedSnapshotId: r.capture.snapshotId ?? null,
      checkpointId: r.capture.checkpointId ?? null,
      written: r.written,
      recreated: r.recreated,
      deleted: r.deleted,
      unchanged: r.unchanged,
      kept: r.kept,
      specialModesDropped: r.specialModesDropped,
      ms: Math.round(performance.now() - started),
    };
  }

  /**
   * Writes a snapshot into a new or empty folder (restore/materializeSnapshot.ts), from the
   * store or from `source`; the project and its history are not touched.
   */
  async materializeSnapshot(projectId: string, snapshotId: number, into: string, options: MaterializeOptions = {}): Promise<MaterializeResult> {
    const started = performance.now();
    const store = this.history(projectId);
    this.requireSnapshot(store, snapshotId);
    const target = resolve(into);
    if (isInside(realpathOr(this.dataDir), join(realpathOr(dirname(target)), basename(target)))) {
      throw new HindsightError('FOLDER_IN_DATA_DIR', `${target} is inside Hindsight's data folder; choose a folder outside it.`, { into: target });
    }
    assertOutsideProject(store.root, target);
    const background = backgroundCloseWanted(process.env, process.platform, options.backgroundClose ?? this.settings().backgroundClose);
    const modes = new SpecialModes(store.index, options.keepSpecialModes === true);
    const files = modes.files(store.index.filesAt(snapshotId), snapshotId);
    // A clone's older snapshot: its bytes may still be only on the remote.
    if (!options.source)
      await this.bytesOnDemand(
        store,
        files.map((f) => f.hash),
        options.signal,
      );
    const written = await materializeSnapshot(
      { projectId, snapshotId, files, folderModeOf: (path) => modes.folderMode(snapshotId, path), emptyFolders: store.index.emptyFoldersAt(snapshotId, files) },
      target,
      options.source ?? localBlobSource(store.blobsDir),
      { background, signal: options.signal, onProgress: this.progressTo(options.operationId) },
    );
    return { projectId, snapshotId, ...written, specialModesDropped: modes.dropped, ms: Math.round(performance.now() - started) };
  }

  /** Writes the history (or the part after `since`) as a bundle to a file (temp, then renamed) or a stream. */
  async exportHistory(projectId: string, to: BundleTarget, options: OperationOptions & { since?: number } = {}): Promise<ExportResult> {
    const store = this.history(projectId);
    // A bundle carries the bytes: a clone's that are still only on the remote are fetched first.
    if (options.since === undefined || store.index.snapshot(options.since)) {
      const carried = () => store.index.blobsBetween(options.since ?? 0, store.index.lastSnapshotId() ?? 0).flatMap((b) => (b.held ? [] : [b.hash]));
      await this.bytesOnDemand(store, carried, options.signal);
    }
    return exportBundleTo(store, to, { since: options.since, signal: options.signal, onProgress: this.progressTo(options.operationId) });
  }

  /**
   * Reads a bundle into the history of the folder it was recorded at, or of `as`: one pass, every
   * blob checked, the index committed last (bundle/importBundle.ts). The folder must exist; it is
   * registered like an opened one, and its files are not touched.
   */
  async importHistory(from: BundleSource, options: OperationOptions & { as?: string } = {}): Promise<ImportResult> {
    const folderOf = (root: string) => {
      const folder = resolveFolder(root);
      dataDirWithin(folder, this.dataDir);
      return folder;
    };
    let registered: ProvisionalProject | undefined;
    try {
      return await importBundleFrom(from, {
        signal: options.signal,
        onProgress: this.progressTo(options.operationId),
        locate: (root) => projectIdOf(folderOf(root)),
        project: async (root) => {
          registered = await registerProvisionally(this.config, this.projects, this.dataDir, folderOf(root));
          return registered.project;
        },
        as: options.as,
        background: backgroundCloseWanted(process.env, process.platform, this.settings().backgroundClose),
        wait: { signal: options.signal, onWait: options.onWait },
      });
    } catch (error) {
      // A refused import leaves no project registered and no store it made.
      await registered?.undo();
      throw error;
    }
  }

  /** A labelled snapshot of the project as it is now. */
  async checkpoint(projectId: string, label: string): Promise<SnapshotInfo> {
    const project = this.record(projectId);
    const id = await this.recorder.checkpoint(project, label);
    return project.store.index.snapshot(id)!;
  }

  // --- live recording

  /** Records changes live until unwatch (or closeProject). */
  async watch(projectId: string, options: WatchOptions = {}): Promise<void> {
    const project = this.record(projectId);
    const fallbackRescanMs = options.fallbackRescanMs ?? this.fallbackRescanMs();
    // A caller that does not handle a refused watch itself is told of it as of any failure.
    const onWatchLimit = options.onWatchLimit ?? ((error: unknown) => options.onError?.(watchLimitError(project.root, error, fallbackRescanMs / 1000)));
    await this.recorder.watch(project, { ...options, fallbackRescanMs, onWatchLimit });
    this.startBackgroundWork(project);
  }

  async unwatch(projectId: string): Promise<void> {
    await this.projects.find(projectId)?.stopWatching();
  }

  /** Stops every watcher after writing its open group; call before close(). */
  unwatchAll(): Promise<void> {
    return this.projects.stopWatchers();
  }

  /** Runs before every change group is written (e.g. a checkpoint when git's HEAD moved). */
  addBeforeCommit(hook: BeforeCommitHook): () => void {
    return this.recorder.addBeforeCommit(hook);
  }

  // --- remotes (docs/REMOTE.md)

  /** Sends what the remote lacks of this project's history (the only remote when none is named). */
  async push(projectId: string, remoteName: string | undefined, options: PushHistoryOptions = {}): Promise<PushResult> {
    const remote = requireRemote(this.config.requireConfig(), remoteName);
    return pushHistory(this.dataDir, this.history(projectId), remote, { ...options, credentials: options.credentials ?? this.credentialsOf(remote.name) });
  }

  /**
   * Takes a remote project's history into a new, empty folder (made when missing): its metadata,
   * the chosen (default: newest) snapshot's files, and every snapshot leading to it. Older bytes
   * are fetched when first read. A clone that fails leaves the folder as empty as it found it.
   */
  async clone(request: { remote?: string; projectId: string; into: string; snapshot?: string }, options: CloneOptions = {}): Promise<CloneResult> {
    const remote = requireRemote(this.config.requireConfig(), request.remote);
    if (!isProjectId(request.projectId)) {
      throw new HindsightError(
        'REMOTE_PROJECT_NOT_FOUND',
        `"${request.projectId}" is not a project id (32 hex digits, as \`hindsight push --json\` prints it).`,
        {
          projectId: request.projectId,
        },
      );
    }
    const made = prepareCloneFolder(request.into);
    let registered: ProvisionalProject | undefined;
    try {
      const root = resolveFolder(request.into);
      dataDirWithin(root, this.dataDir);
      registered = await registerProvisionally(this.config, this.projects, this.dataDir, root);
      const { project } = registered;
      const result = await project.store.writer.hold(
        () =>
          cloneProject(this.dataDir, project.store, remote, request.projectId, {
            ...options,
            credentials: options.credentials ?? this.credentialsOf(remote.name),
            snapshot: request.snapshot,
          }),
        {
          signal: options.signal,
        },
      );
      // The stat cache, from the files just written: the first rescan records nothing.
      await this.open(root);
      return result;
    } catch (error) {
      // The registration goes, and the store with the blobs fetched so far when the clone made it.
      await registered?.undo();
      emptyCloneFolder(request.into, made);
      throw error;
    }
  }

  /**
   * Brings other machines' new snapshots of this project in (the only remote when none is
   * named): history rows only, the folder is not touched; their bytes are fetched when first read.
   */
  async pull(projectId: string, remoteName: string | undefined, options: PullOptions = {}): Promise<PullResult> {
    const remote = requireRemote(this.config.requireConfig(), remoteName);
    const store = this.history(projectId);
    const onProgress = options.onProgress ?? this.progressTo(options.operationId);
    return store.writer.hold(
      () => pullProject(this.dataDir, store, remote, { ...options, credentials: options.credentials ?? this.credentialsOf(remote.name), onProgress }),
      { signal: options.signal },
    );
  }

  /**
   * A remote's credentials from the app's keychain (main hands them over; kept in memory only),
   * or null to drop them: pushes, clones and fetches of that remote use them instead of the AWS
   * chain of this process's environment.
   */
  useRemoteCredentials(remoteName: string, credentials: { accessKeyId: string; secretAccessKey: string } | null): null {
    if (credentials) this.keychainCredentials.set(remoteName, { ...credentials });
    else this.keychainCredentials.delete(remoteName);
    return null;
  }

  private readonly keychainCredentials = new Map<string, { accessKeyId: string; secretAccessKey: string }>();
  private readonly credentialsOf = (remoteName: string) => this.keychainCredentials.get(remoteName);

  /** Each remote's state for a project, from what the pushes noted (no request is made). */
  remoteStatus(projectId: string): RemoteStatus[] {
    return remoteStatuses(this.history(projectId), this.config.loadConfig().config.remotes as RemoteConfig[]);
  }

  /**
   * Pushes every project with new snapshots to every remote set, in the background: batched (one
   * push after `delayMs` of quiet), one at a time. The app and `hindsight watch` turn it on.
   * Credentials: the AWS chain, or `credentials` (the app's keychain).
   */
  startAutoPush(options: { delayMs?: number; credentials?: PushHistoryOptions['credentials'] } = {}): AutoPush {
    this.autoPush?.stop();
    const remotes = () => this.config.loadConfig().config.remotes as RemoteConfig[];
    const autoPush = new AutoPush({
      delayMs: options.delayMs ?? 30_000,
      hasRemote: () => remotes().length > 0,
      push: async (projectId) => {
        for (const remote of remotes()) await this.push(projectId, remote.name, { credentials: options.credentials, background: true });
      },
    });
    this.autoPush = autoPush;
    this.events.on((event) => {
      if (event.event === 'snapshot') autoPush.recorded(event.payload.projectId);
    });
    return autoPush;
  }

  /** Where a prune moves what it thins: the named remote, which must be the one this history's bytes come from. */
  private archiveTarget(projectId: string, store: ProjectStore, name: string): ArchiveTarget {
    const remote = requireRemote(this.config.requireConfig(), name);
    const source = store.index.getMeta('remote.clonedFrom') ?? store.index.getMeta('remote.pulledFrom');
    if (source !== undefined && source !== remote.name) {
      throw new HindsightError(
        'BAD_REQUEST',
        `This history came from the remote ${source}; its thinned versions can only be moved there, not to ${remote.name}.`,
        { remote: remote.name },
      );
    }
    const ledger = () => store.index.remoteLedger(remoteIdentity(remote), { projectId: remoteProjectId(store), machineId: machineIdentity(this.dataDir).id });
    return {
      remote: remote.name,
      push: () => this.push(projectId, remote.name),
      holds: (hash) => ledger().locate(hash) !== undefined,
    };
  }

  /** Bytes a reader is about to need that only a remote holds (a clone's older versions). */
  private async bytesOnDemand(store: ProjectStore, hashes: readonly Hashish[] | (() => Hashish[]), signal?: AbortSignal): Promise<void> {
    if (Array.isArray(hashes) && !hashes.some(isHash)) return;
    const wanted = () => (typeof hashes === 'function' ? hashes() : hashes).filter(isHash);
    await fetchMissingBlobs(this.dataDir, store, this.config.loadConfig().config.remotes as RemoteConfig[], wanted, {
      credentialsOf: this.credentialsOf,
      signal,
    });
  }

  private versionHash(store: ProjectStore, path: string, versionId: number | undefined): string | null | undefined {
    return versionId !== undefined ? store.index.version(versionId)?.hash : store.index.latestContents(path)?.hash;
  }

  // --- config.json

  configView(): ConfigView {
    return configView(this.config.loadConfig(), this.projects.summaries());
  }

  /** Changes settings and known projects in one edit (one save). */
  async editConfig(edit: ParsedRequestOf<'editConfig'>): Promise<ConfigView> {
    await this.config.editConfig(configEdit(edit));
    for (const change of edit.projects ?? []) if (change.forget) this.projects.forget(change.projectId);
    return this.configView();
  }

  // --- stores (for the engine's own modules, benchmarks and tests)

  /** The open store of a project, opening it on first use. */
  store(projectId: string): ProjectStore {
    return this.projects.get(projectId).store;
  }

  /** A store that already has a baseline; a folder never opened is a clear error. */
  history(projectId: string): ProjectStore {
    return this.record(projectId).store;
  }

  /** Closes every store at once; stop the watchers first (unwatchAll) so their open groups are written. */
  close(): void {
    this.autoPrune.stopAll();
    this.projects.closeAll();
  }

  /** The record of a project that has a baseline; a folder never opened is a clear error. */
  private record(projectId: string): OpenProject {
    const project = this.projects.get(projectId);
    if (project.store.index.baselineId() === undefined) {
      throw new HindsightError('NO_BASELINE', `${project.root} has no history yet. Open it first.`, { root: project.root });
    }
    return project;
  }

  private requireSnapshot(store: ProjectStore, snapshotId: number): void {
    if (!store.index.snapshot(snapshotId)) {
      throw new HindsightError('SNAPSHOT_NOT_FOUND', `There is no snapshot ${snapshotId}.`, { snapshotId });
    }
  }

  private totals(store: ProjectStore): { files: number; bytes: number; blobs: number } {
    return { ...store.index.ownFileTotals(), blobs: store.index.blobTotals().blobs };
  }

  private settings() {
    return this.config.loadConfig().config.settings;
  }

  private fallbackRescanMs(): number {
    return this.settings().fallbackRescanSeconds * 1000;
  }

  /** The background build of the search index, kept current from now on; it yields to every write and copy. */
  private startSearchIndex(project: OpenProject): void {
    if (!project.searchBuilder) {
      const slots = sharedCopyPool().slots;
      project.searchBuilder = new SearchBuilder(project.store, {
        maxSize: () => this.settings().searchMaxFileSize,
        busy: () => project.writing() ?? (slots.busy > 0 ? new Promise((resolve) => setTimeout(resolve, 50)) : undefined),
      });
    }
    project.searchBuilder.poke();
  }

  /** What a process that records does in the background for a project: the search index, and compaction (setting compactInBackground). */
  private startBackgroundWork(project: OpenProject): void {
    this.startSearchIndex(project);
    if (this.settings().compactInBackground) this.startCompaction(project);
  }

  /** The background compaction of the store's raw blobs; it yields to every write and copy. */
  private startCompaction(project: OpenProject): void {
    const slots = sharedCopyPool().slots;
    project.compaction ??= new BackgroundCompaction(project, {
      busy: () => project.writing() ?? (slots.busy > 0 ? new Promise((resolve) => setTimeout(resolve, 50)) : undefined),
    });
    project.compaction.start();
  }

  /** A live watcher; one that cannot start is reported as an error event, and the open still succeeded. */
  private async startWatching(project: OpenProject): Promise<void> {
    const report = (error: unknown) => this.events.emit({ event: 'error', payload: { projectId: project.projectId, error: errorData(error) } });
    const fallbackRescanMs = this.fallbackRescanMs();
    try {
      await this.recorder.watch(project, {
        quietMs: this.settings().quietWindowMs,
        fallbackRescanMs,
        onError: report,
        onWatchLimit: (error) => report(watchLimitError(project.root, error, fallbackRescanMs / 1000)),
      });
    } catch (error) {
      report(error);
    }
  }

  private progressTo(operationId: string | undefined): (progress: Progress) => void {
    return (progress) => this.events.emit({ event: 'progress', payload: { ...progress, operationId: operationId ?? null } });
  }
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
