import type { Readable } from 'node:stream';
import type * as contract from '../../shared/contract.js';
import { HindsightError } from '../../shared/errors.js';
import type { IndexRepairResult } from '../../shared/history.js';
import type { Progress } from '../../shared/progress.js';
import { BundleOperations } from './bundle/bundleOperations.js';
import type { BundleSource, BundleTarget, IncomingNamesSink } from './bundle/bundleTransfer.js';
import type { BackgroundCompaction } from './compact/backgroundCompaction.js';
import { compactProject } from './compact/compactProject.js';
import { configStoreFor, type ConfigStore, type FrozenConfig } from './config/configStore.js';
import { configEdit, configView } from './config/configView.js';
import type { EngineRescanOptions, ExportOptions, MaterializeOptions, OpenOptions, OperationOptions, SnapshotRestoreOptions } from './engineOptions.js';
import { EngineEvents } from './engineEvents.js';
import { errorData } from './errorData.js';
import { GitContext } from './git/gitContext.js';
import { gitVersions } from './git/gitVersions.js';
import type { OpenProject } from './registry/openProject.js';
import { openFolder, type OpenSteps } from './registry/openFolder.js';
import { ProjectRegistry } from './registry/projectRegistry.js';
import { sweepAndReport } from './registry/projectStates.js';
import type { ProjectStore } from './project/projectStore.js';
import { registerProvisionally } from './registry/provisionalProject.js';
import { relocateRegistered } from './registry/relocateRegistered.js';
import { repairOpenIndex } from './registry/repairOpenIndex.js';
import type { CloneRequest } from './remote/fetch/cloneInto.js';
import type { CloneOptions, CloneResult } from './remote/fetch/cloneProject.js';
import type { PullOptions, PullResult } from './remote/fetch/pullProject.js';
import type { AutoPush } from './remote/push/autoPush.js';
import type { PushHistoryOptions } from './remote/push/pushHistory.js';
import type { PushResult } from './remote/push/pushProject.js';
import { RemoteOperations } from './remote/remoteOperations.js';
import type { PlanOptions } from './restore/planRestore.js';
import { assertProjectPath } from './paths/safeTarget.js';
import { AutoPrune } from './retention/autoPrune.js';
import { RetentionOperations, type PruneRequest } from './retention/retentionOperations.js';
import { setPin, type PinTarget } from './retention/setPin.js';
import { buildIndexNow, type IndexNowResult } from './search/buildIndexNow.js';
import type { SearchRequest } from './search/searchHistory.js';
import { searchJsonOnThread, searchOnThread } from './search/searchThread.js';
import { storeStats } from './stats/storeStats.js';
import { changeDensity, storeGrowth } from './stats/timePictures.js';
import { sharedCopyPool } from './store/copyPool.js';
import { verifyStore } from './verify/verifyStore.js';
import type { BeforeCommitHook } from './versions/commitHooks.js';
import { headCheckpoint } from './versions/headCheckpoint.js';
import { HistoryReads } from './versions/historyReads.js';
import { LiveRecording } from './versions/liveRecording.js';
import { openResult, type Opened } from './versions/openResult.js';
import { ProjectRecorder, type WatchOptions } from './versions/projectRecorder.js';
import { RestoreOperations } from './versions/restoreOperations.js';
import type { DiffSide } from './versions/versionBytes.js';
import { ignoredPaths } from './walk/ignoredPaths.js';
import { writeHeard, type HeardWritten } from './versions/writeHeard.js';

export type { EngineRescanOptions, ExportOptions, MaterializeOptions, OpenOptions, OperationOptions, SnapshotRestoreOptions } from './engineOptions.js';

// The history engine of one process, and the one seam its callers (the dispatcher, the CLI, the
// browser host, the tests) cross: a table of operations. It keeps the registry of open projects
// (registry/projectRegistry.ts: one record per project, holding its store, database handle, watcher
// and write queue) and their lifecycle; every other call delegates to the module of its folder or
// to the object of its concept (reads, restores, bundles, remotes, retention), and answers with
// the contract's value types, unchanged all the way to the viewer and the CLI's --json. What each
// call does is its description in shared/contract.ts. What it records it announces on `events`
// (snapshot, progress, projectState, error), fired where the thing happens. Adding a call: its
// work in a module of its folder, a line here delegating to it, a line in shared/contract.ts, and
// its route in dispatcher/routes.ts (the compiler insists). Plain Node.

type Settings = FrozenConfig['settings'];

export class HistoryEngine {
  /** config.json of this data folder: known projects and settings. */
  readonly config: ConfigStore;
  /** Every snapshot recorded, progress of long work, folder states, failures outside any call. */
  readonly events = new EngineEvents();
  /** The app's own prunes: after a first copy, then about hourly, when nothing copies. */
  readonly autoPrune: AutoPrune;
  private readonly projects: ProjectRegistry;
  private readonly recorder: ProjectRecorder;
  private readonly live: LiveRecording;
  private readonly remotes: RemoteOperations;
  private readonly reads: HistoryReads;
  private readonly restores: RestoreOperations;
  private readonly bundles: BundleOperations;
  private readonly retention: RetentionOperations;

  constructor(readonly dataDir: string) {
    this.config = configStoreFor(dataDir);
    this.projects = new ProjectRegistry(dataDir, () => this.config.loadConfig().config.projects, {
      onSnapshot: (projectId, snapshot, effect) => {
        // New versions may name blobs the search index has not seen: the builder looks again.
        this.projects.find(projectId)?.searchBuilder?.poke();
        this.emit({ event: 'snapshot', payload: { projectId, snapshot, ...(effect ? { effect } : {}) } });
      },
    });
    this.recorder = new ProjectRecorder({ exclude: () => this.settings().excludePatterns, maxFileSize: () => this.settings().maxFileSize });
    // A checkpoint of the state before git moved HEAD, ahead of the group that records git's rewrite.
    this.recorder.addBeforeCommit(async (store, paths) => (await headCheckpoint(store, paths.length > 0))?.after);
    this.live = new LiveRecording(this.recorder, () => this.settings());
    const slots = () => sharedCopyPool().slots;
    this.autoPrune = new AutoPrune(slots, (id) => this.prune(id), { onError: this.reportError });
    const { config, registerProvisionally: register, progressTo } = this;
    const open = (root: string) => this.open(root);
    this.remotes = new RemoteOperations({ dataDir, config, register, open, store: (id) => this.recorded(id), progressTo });
    const { bytesOnDemand } = this.remotes;
    const backgroundClose = () => this.settings().backgroundClose;
    this.reads = new HistoryReads(bytesOnDemand);
    this.restores = new RestoreOperations(this.recorder, { dataDir, bytesOnDemand, backgroundClose, progressTo });
    this.bundles = new BundleOperations({ dataDir, register, bytesOnDemand, backgroundClose, progressTo });
    this.retention = new RetentionOperations({ settings: () => this.settings(), archiveTarget: (store, name) => this.remotes.archiveTarget(store, name) });
  }

  // --- projects: the registry and each project's lifecycle

  locate(folder: string): string {
    return this.projects.locate(folder);
  }
  /** Its first copy when it has no history yet, else a rescan; with `watch` it is recorded from then on. */
  async open(folder: string, options: OpenOptions = {}): Promise<contract.OpenProjectResult> {
    const steps: OpenSteps<Opened> = {
      record: (project, settings) => this.recorder.open(project, { ...options, ...settings, onProgress: this.progressTo(options.operationId) }),
      opened: options.watch ? (project, opened) => this.startRecording(project, 'firstCopy' in opened) : undefined,
    };
    const { project, opened, started, repaired } = await openFolder(this.openContext, folder, options, steps);
    return openResult(project, opened, started, this.projects.summary(project.projectId), repaired);
  }

  async relocate(projectId: string, folder: string, options: OpenOptions = {}): Promise<contract.OpenProjectResult> {
    return this.open(await relocateRegistered(this.openContext, projectId, folder), options);
  }

  closeProject(projectId: string): Promise<void> {
    this.autoPrune.stop(projectId);
    return this.projects.close(projectId);
  }
  async listProjects(options: { check?: boolean; signal?: AbortSignal } = {}): Promise<contract.ProjectSummary[]> {
    if (options.check) await this.sweepProjects(options.signal);
    return this.projects.summaries();
  }
  sweepProjects(signal?: AbortSignal): Promise<void> {
    return sweepAndReport(this.config, this.emit, signal);
  }
  /** The open store of a project, opening it on first use (for the engine's own modules, benchmarks and tests). */
  store(projectId: string): ProjectStore {
    return this.projects.get(projectId).store;
  }
  /** Closes every store at once; stop the watchers first (unwatchAll) so their open groups are written. */
  close(): void {
    this.autoPrune.stopAll();
    this.projects.closeAll();
  }

  // --- reading the history (versions/historyReads.ts, versions/versionBytes.ts); bytes only a remote holds are fetched first

  log(projectId: string): contract.SnapshotInfo[] {
    return this.recorded(projectId).index.snapshotReads.snapshots();
  }
  logPages(projectId: string): Iterable<contract.SnapshotInfo[]> {
    return this.recorded(projectId).index.snapshotReads.snapshotPages();
  }
  snapshotChanges(projectId: string, snapshotId: number): contract.SnapshotChange[] {
    return this.reads.snapshotChanges(this.recorded(projectId), snapshotId);
  }
  snapshotSummary(projectId: string, snapshotId: number): contract.SnapshotSummary {
    return this.reads.snapshotSummary(this.recorded(projectId), snapshotId);
  }
  files(projectId: string, at?: number): contract.FileEntry[] {
    return this.reads.files(this.recorded(projectId), at);
  }
  filePages(projectId: string, at?: number): Iterable<contract.FileEntry[]> {
    return this.reads.filePages(this.recorded(projectId), at);
  }
  emptyFolders(projectId: string, at?: number): { path: string; mode: number | null }[] {
    return this.reads.emptyFolders(this.recorded(projectId), at);
  }
  folderLevel(projectId: string, folder: string, at?: number): contract.FolderLevel {
    return this.reads.folderLevel(this.recorded(projectId), folder, at);
  }
  versions(projectId: string, path: string, page: { limit?: number; before?: number } = {}): contract.VersionInfo[] {
    assertProjectPath(path);
    return this.reads.versions(this.recorded(projectId), path, page);
  }
  readVersion(projectId: string, path: string, options: { versionId?: number; maxBytes: number }): Promise<contract.FileBytes> {
    return this.reads.readVersion(this.recorded(projectId), path, options);
  }
  diffInputs(projectId: string, path: string, before: DiffSide, after: DiffSide, maxBytes: number): Promise<contract.DiffInputs> {
    assertProjectPath(path);
    return this.reads.diffInputs(this.recorded(projectId), path, before, after, maxBytes);
  }
  lineHistory(projectId: string, path: string, lines: contract.LineSpanInfo, startId?: number): Promise<contract.LineVersion[]> {
    return this.reads.lineHistory(this.recorded(projectId), path, lines, startId);
  }
  diskState(projectId: string, path: string): Promise<contract.DiskState> {
    assertProjectPath(path);
    return this.reads.diskState(this.recorded(projectId), path);
  }
  /** Every byte of a version, streamed (the CLI's show). */
  versionStream(projectId: string, path: string, versionId?: number): Promise<Readable> {
    return this.reads.versionStream(this.recorded(projectId), path, versionId);
  }
  /** Every byte of git's HEAD or INDEX version of a file (the CLI's `show --version HEAD`). */
  gitVersionStream(projectId: string, path: string, source: contract.GitSource): Promise<Readable> {
    assertProjectPath(path);
    return this.reads.gitVersionStream(this.recorded(projectId), path, source);
  }
  /** Git alone answers this: a folder never opened gets no store made for it. */
  gitVersions(projectId: string, path: string): Promise<contract.GitVersions> {
    assertProjectPath(path);
    return gitVersions(this.projects.find(projectId)?.store.git ?? new GitContext(this.projects.rootOf(projectId)), path);
  }
  async ignored(projectId: string): Promise<string[]> {
    const { store, exclude } = this.record(projectId);
    return ignoredPaths(store.root, { exclude: exclude ?? this.settings().excludePatterns, tracked: await store.git.tracked(), skip: store.dataFolder });
  }
  deleted(projectId: string): contract.DeletedFile[] {
    return this.recorded(projectId).index.files.deletedFiles();
  }
  storeStats(projectId: string, largest: number): contract.StoreStats {
    return storeStats(this.recorded(projectId), largest, this.settings().searchMaxFileSize, this.settings().historyBudget);
  }
  /** How much changed per hour or day: every snapshot, or one file's versions (stats/timePictures.ts). */
  changeDensity(projectId: string, path: string | undefined, utcOffsetMinutes = 0): contract.ChangeDensity {
    if (path !== undefined) assertProjectPath(path);
    return changeDensity(this.recorded(projectId), path, utcOffsetMinutes);
  }
  storeGrowth(projectId: string, utcOffsetMinutes = 0): contract.StoreGrowth {
    return storeGrowth(this.recorded(projectId), utcOffsetMinutes);
  }

  // --- search (search/)

  /** On its own worker thread (search/searchThread.ts); `signal` ends it at once (its caller went away). */
  search(projectId: string, request: SearchRequest, options: { signal?: AbortSignal } = {}): Promise<contract.SearchResult> {
    return searchOnThread(this.recorded(projectId), request, this.settings().searchMaxFileSize, options.signal);
  }
  /** The same answer as its JSON text, made on the search's thread (the CLI's `--json`). */
  searchJson(projectId: string, request: SearchRequest, options: { signal?: AbortSignal } = {}): Promise<string> {
    return searchJsonOnThread(this.recorded(projectId), request, this.settings().searchMaxFileSize, options.signal);
  }
  /** The search index built now, in the foreground (the CLI's index command; search/buildIndexNow.ts). */
  buildSearchIndex(projectId: string, options: OperationOptions = {}): Promise<IndexNowResult> {
    const progress = { onProgress: this.progressTo(options.operationId), signal: options.signal };
    return buildIndexNow(this.recorded(projectId), () => this.settings().searchMaxFileSize, progress);
  }

  // --- retention (retention/retentionOperations.ts)

  pins(projectId: string): contract.Pins {
    return this.recorded(projectId).index.pinning.pins();
  }
  setPin(projectId: string, target: PinTarget, pinned: boolean): contract.Pins {
    if ('path' in target && target.path !== undefined) assertProjectPath(target.path);
    return setPin(this.recorded(projectId), target, pinned);
  }
  prune(projectId: string, options: PruneRequest = {}): Promise<contract.PruneResult> {
    return this.retention.prune(this.recorded(projectId), options);
  }
  retentionStatus(projectId: string, holders = 10): contract.RetentionStatus {
    return this.retention.status(this.recorded(projectId), holders);
  }

  // --- checking and compacting the store (verify/, compact/, registry/repairIndex.ts)

  /** With `repair`, as the project's writer; `checkRemote` asks the remote about the blobs only it holds (one listing). */
  verify(projectId: string, options: OperationOptions & { repair?: boolean; checkRemote?: boolean } = {}): Promise<contract.VerifyResult> {
    const remoteOnly = this.remotes.remoteOnly(this.recorded(projectId), options.checkRemote);
    if (!options.repair) return verifyStore(this.recorded(projectId), this.progressTo(options.operationId), { signal: options.signal, remoteOnly });
    return this.recorder.verifyAndRepair(this.record(projectId), this.progressTo(options.operationId), { ...options, remoteOnly });
  }

  /** Batch by batch as the project's writer (compact/compactStore.ts); stops at `signal`, and a next run goes on from there. */
  compact(projectId: string, options: OperationOptions & { dryRun?: boolean } = {}): Promise<contract.CompactResult> {
    const { dryRun, signal, onWait } = options;
    return compactProject(this.record(projectId), { dryRun, signal, onWait, onProgress: this.progressTo(options.operationId) });
  }
  /** The background compaction of a project opened for recording, when one was started. */
  backgroundCompaction(projectId: string): BackgroundCompaction | undefined {
    return this.projects.find(projectId)?.compaction;
  }
  /** The index brought back from its backup (the damaged one kept beside it), the project opened (a rescan), every blob re-checked and repaired. */
  async repair(folder: string, options: OperationOptions = {}): Promise<IndexRepairResult> {
    const { root, ...swap } = await repairOpenIndex(this.dataDir, this.projects, folder);
    const opened = await this.open(root, { ...options, confirmLarge: true });
    return { projectId: opened.projectId, root: opened.root, ...swap, verify: await this.verify(opened.projectId, { ...options, repair: true }) };
  }

  // --- writing the history (versions/projectRecorder.ts, restore/)

  rescan(projectId: string, options: EngineRescanOptions = {}): Promise<contract.RescanResult> {
    return this.restores.rescan(this.record(projectId), options);
  }
  previewRestore(projectId: string, snapshotId: number, options: PlanOptions = {}): Promise<contract.RestorePreview> {
    return this.restores.preview(this.record(projectId), snapshotId, options);
  }
  restoreFile(projectId: string, path: string, versionId: number, options: { keepSpecialModes?: boolean } = {}): Promise<contract.RestoreFileResult> {
    return this.restores.file(this.record(projectId), path, versionId, options);
  }
  restoreHunk(projectId: string, path: string, versionId: number, hunk: contract.HunkRange, diskHash: string): Promise<contract.RestoreFileResult> {
    assertProjectPath(path);
    return this.restores.hunk(this.record(projectId), path, versionId, hunk, diskHash);
  }
  restoreFromGit(projectId: string, path: string, source: contract.GitSource): Promise<contract.RestoreFileResult> {
    assertProjectPath(path);
    return this.restores.fromGit(this.record(projectId), path, source);
  }
  restoreSnapshot(projectId: string, snapshotId: number, options: SnapshotRestoreOptions = {}): Promise<contract.RestoreSnapshotResult> {
    return this.restores.snapshot(this.record(projectId), snapshotId, options);
  }
  undoRestore(projectId: string, snapshotId: number, options: SnapshotRestoreOptions = {}): Promise<contract.RestoreSnapshotResult> {
    return this.restores.undo(this.record(projectId), snapshotId, options);
  }
  materializeSnapshot(projectId: string, snapshotId: number, into: string, options: MaterializeOptions = {}): Promise<contract.MaterializeResult> {
    return this.restores.materialize(this.recorded(projectId), snapshotId, into, options);
  }
  /** A clone's bytes still only on the remote are fetched first: a bundle carries them. */
  exportHistory(projectId: string, to: BundleTarget, options: ExportOptions = {}): Promise<contract.ExportResult> {
    return this.bundles.export(this.recorded(projectId), to, options);
  }
  importHistory(from: BundleSource, options: OperationOptions & { as?: string; onIncomingNames?: IncomingNamesSink } = {}): Promise<contract.ImportResult> {
    return this.bundles.import(from, options);
  }
  checkpoint(projectId: string, label: string): Promise<contract.SnapshotInfo> {
    return this.restores.checkpoint(this.record(projectId), label);
  }

  // --- live recording

  /** Records changes live until unwatch (or closeProject); a watch the OS refuses gives way to rescans (versions/liveRecording.ts). */
  async watch(projectId: string, options: WatchOptions = {}): Promise<void> {
    await this.live.watch(this.record(projectId), options);
  }
  /** A catch-up rescan with the watch placed as its walk lists each folder; background work waits for startBackgroundWork. */
  catchUpAndWatch(projectId: string, options: EngineRescanOptions, watch: WatchOptions): Promise<contract.RescanResult> {
    return this.live.catchUpAndWatch(this.record(projectId), { ...options, onProgress: this.progressTo(options.operationId) }, watch);
  }
  /** The search index build (and compaction) of a project recorded live, kept current from then on. */
  startBackgroundWork(projectId: string): void {
    this.live.startBackgroundWork(this.record(projectId));
  }
  /** Writes a watched project's open change group now (a command asked the recorder); 'unwatched' when no watch runs here. */
  writeHeard(projectId: string): Promise<HeardWritten> {
    return writeHeard(this.projects.find(projectId));
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

  // --- remotes (remote/remoteOperations.ts, docs/REMOTE.md); the only remote when none is named

  push(projectId: string, remoteName: string | undefined, options: PushHistoryOptions = {}): Promise<PushResult> {
    return this.remotes.push(this.recorded(projectId), remoteName, options);
  }
  clone(request: CloneRequest, options: CloneOptions = {}): Promise<CloneResult> {
    return this.remotes.clone(request, options);
  }
  pull(projectId: string, remoteName: string | undefined, options: PullOptions = {}): Promise<PullResult> {
    return this.remotes.pull(this.recorded(projectId), remoteName, options);
  }
  useRemoteCredentials(remoteName: string, credentials: { accessKeyId: string; secretAccessKey: string } | null): null {
    return this.remotes.useCredentials(remoteName, credentials);
  }
  remoteStatus(projectId: string): contract.RemoteStatus[] {
    return this.remotes.status(this.recorded(projectId));
  }
  /** The background push of every project with new snapshots (the app and `hindsight watch`; remote/push/autoPush.ts). */
  startAutoPush(options: { delayMs?: number; credentials?: PushHistoryOptions['credentials'] } = {}): AutoPush {
    return this.remotes.startAutoPush(this.events, options);
  }

  // --- config.json

  configView(): contract.ConfigView {
    return configView(this.config.loadConfig(), this.projects.summaries());
  }
  async editConfig(edit: contract.ParsedRequestOf<'editConfig'>): Promise<contract.ConfigView> {
    await this.config.editConfig(configEdit(edit));
    for (const change of edit.projects ?? []) if (change.forget) this.projects.forget(change.projectId);
    return this.configView();
  }

  // --- what the calls share

  /** A project opened to record: its live recording, and the app's prunes (right after a first copy, else a few minutes on). */
  private async startRecording(project: OpenProject, firstCopy: boolean): Promise<void> {
    await this.live.start(project, (error) => this.reportError(project.projectId, error));
    this.autoPrune.start(project.projectId, firstCopy ? 0 : 5 * 60_000);
  }

  /** Registers a folder for a write that may fail (a clone, an import): taken back when it fails. */
  private readonly registerProvisionally = (root: string) => registerProvisionally(this.config, this.projects, this.dataDir, root);
  /** The record of a project that has a baseline; a folder never opened is a clear error. */
  private record(projectId: string): OpenProject {
    const project = this.projects.get(projectId);
    if (project.store.index.snapshotReads.baselineId() !== undefined) return project;
    throw new HindsightError('NO_BASELINE', `${project.root} has no history yet. Open it first.`, { root: project.root });
  }

  private recorded(projectId: string): ProjectStore {
    return this.record(projectId).store;
  }
  private settings(): Settings {
    return this.config.loadConfig().config.settings;
  }
  private readonly emit = (event: contract.EngineEvent) => this.events.emit(event);
  private readonly reportError = (projectId: string, error: unknown) => this.emit({ event: 'error', payload: { projectId, error: errorData(error) } });
  private readonly progressTo = (operationId: string | undefined) => (progress: Progress) =>
    this.emit({ event: 'progress', payload: { ...progress, operationId: operationId ?? null } });
  private get openContext() {
    return { dataDir: this.dataDir, config: this.config, projects: this.projects, emit: this.emit };
  }
}
