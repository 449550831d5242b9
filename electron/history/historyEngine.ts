import { realpathSync } from 'node:fs';
import { HindsightError, isHindsightError } from '../../shared/errors.js';
import type { FileEntry, OpenResult, SnapshotInfo, VersionInfo, VerifyResult } from '../../shared/history.js';
import type { GitVersions } from '../../shared/git.js';
import { firstCopy, type FirstCopyOptions } from './copy/firstCopy.js';
import { gitVersions } from './git/gitVersions.js';
import { headCheckpoint } from './git/headCheckpoint.js';
import { GitContext } from './git/gitContext.js';
import { configStoreFor, type ConfigStore } from './config/configStore.js';
import { forgetProject, registerProject } from './config/projectEdits.js';
import { projectIdOf } from './project/projectId.js';
import { dataDirWithin } from './project/dataDirPlace.js';
import { ProjectStore, resolveFolder } from './project/projectStore.js';
import { restoreFile, type RestoreFileResult } from './restore/restoreFile.js';
import type { PlanOptions, RestorePreview } from './restore/planRestore.js';
import type { RestoreSnapshotResult } from './restore/restoreSnapshot.js';
import type { BeforeCommitHook } from './versions/commitHooks.js';
import type { WriterWait } from './project/writerLock.js';
import { deletedFiles, type DeletedFile } from './versions/deletedFiles.js';
import { ProjectRecorder, type RestoreOptions, type WatchOptions } from './versions/projectRecorder.js';
import type { RescanOptions, RescanResult } from './versions/rescan.js';
import { assertProjectPath } from './restore/safeTarget.js';
import { sharedCopyPool } from './store/copyPool.js';
import { readBlob } from './store/readBlob.js';
import { findVersion } from './versions/findVersion.js';
import { verifyStore } from './verify/verifyStore.js';
import type { ProgressSink } from './progressThrottle.js';

// The history engine of one process: every open project's store, and the operations the CLI, the
// history process and the browser host all call. Plain Node: no Electron anywhere below here.

export interface OpenOptions extends Omit<FirstCopyOptions, 'largeFolder'>, Pick<WriterWait, 'onWait'> {
  /** The user confirmed a first copy past the largeFolderFiles / largeFolderBytes settings. */
  confirmLarge?: boolean;
}

export class HistoryEngine {
  private readonly stores = new Map<string, ProjectStore>();
  /** Versions after the baseline: rescans, live watchers, restores and checkpoints. */
  readonly recorder = new ProjectRecorder({
    exclude: () => this.config.loadConfig().config.settings.excludePatterns,
    maxFileSize: () => this.config.loadConfig().config.settings.maxFileSize,
  });
  /** config.json of this data folder: known projects and settings. */
  readonly config: ConfigStore;

  constructor(readonly dataDir: string) {
    this.config = configStoreFor(dataDir);
    // A checkpoint of the state before git moved HEAD, ahead of the group that records git's rewrite.
    this.recorder.addBeforeCommit(async (store) => void (await headCheckpoint(store)));
  }

  /** The open store of a folder, opening it on first use. */
  store(folder: string): ProjectStore {
    const key = realpathOr(folder);
    const known = this.stores.get(key);
    if (known) return known;
    const store = ProjectStore.open(folder, this.dataDir);
    this.stores.set(store.root, store);
    return store;
  }

  /** Opens a folder: its first copy when it has no history yet. */
  async open(folder: string, options: OpenOptions = {}): Promise<OpenResult> {
    // Registered in config.json before anything is copied: a config that cannot be edited (corrupt,
    // unreadable, locked) stops the open here, before any store exists.
    const root = resolveFolder(folder);
    dataDirWithin(root, this.dataDir); // a folder inside the data folder is refused before it is registered
    const knownBefore = this.config.loadConfig().config.projects.some((p) => p.id === projectIdOf(root));
    const { settings } = await this.config.editConfig(registerProject(root));
    if (!options.pool) sharedCopyPool().slots.setLimit(settings.copyConcurrency);
    const store = this.store(folder);
    const exclude = [...settings.excludePatterns, ...(options.exclude ?? [])];
    const { maxFileSize } = settings;
    if (store.index.baselineId() === undefined) {
      const largeFolder = options.confirmLarge ? undefined : { files: settings.largeFolderFiles, bytes: settings.largeFolderBytes };
      const copied = await this.firstCopyOnce(store, { maxFileSize, ...options, exclude, largeFolder }, options, !knownBefore);
      if (copied) return { ...copied, git: store.git.state() };
    }
    const started = performance.now();
    const { signal, pool, onProgress, onWait } = options;
    await this.recorder.rescan(store, { exclude, maxFileSize, signal, pool, onProgress, onWait });
    const files = store.index.filesAt();
    const totals = store.index.blobTotals();
    return {
      projectId: store.projectId,
      root: store.root,
      files: files.length,
      bytes: files.reduce((sum, f) => sum + f.size, 0),
      blobs: totals.blobs,
      ms: Math.round(performance.now() - started),
      firstCopy: false,
      git: store.git.state(),
    };
  }

  /**
   * The first copy, as the store's one writer: undefined when a process copied the folder while
   * this one waited (the open is then a rescan). A large folder not confirmed leaves no trace: its
   * blobs are dropped, and it is forgotten again when this open registered it.
   */
  private async firstCopyOnce(store: ProjectStore, copy: FirstCopyOptions, wait: WriterWait, registeredNow: boolean): Promise<OpenResult | undefined> {
    try {
      return await this.recorder.exclusive(store, async () => (store.index.baselineId() === undefined ? firstCopy(store, copy) : undefined), wait);
    } catch (error) {
      if (registeredNow && isHindsightError(error) && error.code === 'CONFIRM_LARGE_FOLDER') {
        await this.config.editConfig(forgetProject(store.projectId)).catch(() => undefined);
      }
      throw error;
    }
  }

  /** A store that already has a baseline; a folder never opened is a clear error. */
  history(folder: string): ProjectStore {
    const store = this.store(folder);
    if (store.index.baselineId() === undefined) {
      throw new HindsightError('NO_BASELINE', `${store.root} has no history yet. Open it first.`, { root: store.root });
    }
    return store;
  }

  files(folder: string, at?: number): FileEntry[] {
    const store = this.history(folder);
    if (at !== undefined && !store.index.snapshot(at)) {
      throw new HindsightError('SNAPSHOT_NOT_FOUND', `There is no snapshot ${at}.`, { snapshotId: at });
    }
    return store.index.filesAt(at);
  }

  log(folder: string): SnapshotInfo[] {
    return this.history(folder).index.snapshots();
  }

  versions(folder: string, path: string): VersionInfo[] {
    assertProjectPath(path);
    return this.history(folder).index.versionsOf(path);
  }

  /** The bytes of a version (default: the latest version that has contents). */
  read(folder: string, path: string, versionId?: number): Buffer {
    const store = this.history(folder);
    const version = findVersion(store, path, versionId);
    return version.type === 'symlink' ? Buffer.from(version.target ?? '', 'utf8') : readBlob(store.blobsDir, version.hash);
  }

  restoreFile(folder: string, path: string, versionId: number): Promise<RestoreFileResult> {
    const store = this.history(folder);
    return this.recorder.exclusive(store, () => {
      // Never write into a folder that vanished or was replaced: it is not this history's folder.
      store.assertFolderUnchanged();
      return restoreFile(store, path, versionId);
    });
  }

  /** Brings the history up to date with the disk (what every open does). */
  rescan(folder: string, options: RescanOptions = {}): Promise<RescanResult> {
    return this.recorder.rescan(this.history(folder), options);
  }

  /** What restoring a snapshot (or a folder or file of it) would write, recreate, leave and keep. */
  previewRestore(folder: string, snapshotId: number, options: PlanOptions = {}): Promise<RestorePreview> {
    return this.recorder.preview(this.history(folder), snapshotId, options);
  }

  restoreSnapshot(folder: string, snapshotId: number, options: RestoreOptions = {}): Promise<RestoreSnapshotResult> {
    const { backgroundClose } = this.config.loadConfig().config.settings;
    return this.recorder.restore(this.history(folder), snapshotId, { backgroundClose, ...options });
  }

  /** Paths whose latest version is a deletion. */
  deleted(folder: string): DeletedFile[] {
    return deletedFiles(this.history(folder));
  }

  /** A labelled snapshot of the project as it is now; returns its id. */
  checkpoint(folder: string, label: string): Promise<number> {
    return this.recorder.checkpoint(this.history(folder), label);
  }

  /** Records changes live until unwatch. */
  watch(folder: string, options: WatchOptions = {}): Promise<void> {
    return this.recorder.watch(this.history(folder), options);
  }

  unwatch(folder: string): Promise<void> {
    return this.recorder.unwatch(this.history(folder));
  }

  /** Stops every watcher after writing its open group; call before close(). */
  unwatchAll(): Promise<void> {
    return this.recorder.close();
  }

  /** Runs before every change group is written (e.g. a checkpoint when git's HEAD moved). */
  addBeforeCommit(hook: BeforeCommitHook): () => void {
    return this.recorder.addBeforeCommit(hook);
  }

  /** A file's committed (HEAD) version, and its staged one when that differs, from git. */
  gitVersions(folder: string, path: string): Promise<GitVersions> {
    assertProjectPath(path);
    // Git alone answers this: a folder never opened gets no store made for it.
    const open = this.stores.get(realpathOr(folder));
    return gitVersions(open?.git ?? new GitContext(resolveFolder(folder)), path);
  }

  verify(folder: string, onProgress?: ProgressSink, signal?: AbortSignal): Promise<VerifyResult> {
    return verifyStore(this.history(folder), onProgress, signal);
  }

  close(): void {
    for (const store of this.stores.values()) store.close();
    this.stores.clear();
  }
}

function realpathOr(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return folder;
  }
}
