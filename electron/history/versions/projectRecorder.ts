import type { OpenProject } from '../registry/openProject.js';
import type { ProjectStore } from '../project/projectStore.js';
import { firstCopy, type FirstCopyOptions, type FirstCopyResult } from '../copy/firstCopy.js';
import type { WriterWait } from '../project/writerLock.js';
import { planRestore, planSummary, type PlanOptions } from '../restore/planRestore.js';
import { restoreFile, restoreFromGit } from '../restore/restoreFile.js';
import { restoreHunk } from '../restore/restoreHunk.js';
import { undoesSnapshotRestore } from '../restore/restoreOrigin.js';
import { executeRestore, type ExecuteOptions, type RestoreOutcome } from '../restore/restoreSnapshot.js';
import type { CopyPool } from '../store/copyPool.js';
import type { BatchTiming, ChangeGroupRequest } from '../watch/changeBatcher.js';
import type { WalkedFolders } from '../walk/walkedFolders.js';
import { PERIODIC_CHECK, ProjectWatcher, type ProjectWatcherOptions } from '../watch/projectWatcher.js';
import { IgnoreMatcher } from '../watch/ignoreMatcher.js';
import type { GitSource, HunkRange, RestoreFileResult, RestorePreview } from '../../../shared/contract/values.js';
import { commitChangeGroup, type ChangeGroupResult, type MassChangeRule } from './changeGroup.js';
import { insertCheckpoint } from './checkpoint.js';
import { CommitHooks, type BeforeCommitHook } from './commitHooks.js';
import { againIfCollected, prepareChanges, recordPaths } from './recordPaths.js';
import { rescan, type RescanOptions, type RescanOutcome } from './rescan.js';
import { rescoreRenames } from './rescoreRenames.js';
import { movedSince, recordGoneMoves, type BeforeMove, type GroupMoves } from './headMoves.js';
import type { MoveRules } from './moveFromObjects.js';
import type { VerifyResult } from '../../../shared/history.js';
import type { ProgressSink } from '../progressThrottle.js';
import { repairFromFolder } from '../verify/repairBlobs.js';
import { backupIndexIfDue } from '../registry/indexBackup.js';
import { verifyStore, type VerifyOptions } from '../verify/verifyStore.js';
import { count } from '../trace.js';

// Everything that writes to a project's history, for every open project of the engine: the first
// copy, the rescan, the live watchers' change groups, restores and checkpoints. Writes to one
// project run one at a time through its record's queue (a restore never interleaves with a change
// group), each holding the store's writer lock (so no other process writes meanwhile), and each
// starts by bringing the history up to date with the disk, so every byte a restore overwrites is
// recorded first.

export interface RecorderOptions {
  massChange?: MassChangeRule;
  pool?: CopyPool;
  /** The exclude patterns of the settings, for a project not opened in this process (a CLI restore). */
  exclude?: () => readonly string[];
  /** The maxFileSize setting: new files over it are not recorded. */
  maxFileSize?: () => number | null;
}

export interface WatchOptions extends Partial<BatchTiming>, Pick<ProjectWatcherOptions, 'fallbackRescanMs' | 'onWatchLimit'> {
  exclude?: readonly string[];
  reconcileEveryMs?: number;
  /** Called after each change group is written (or found empty). */
  onGroup?: (result: ChangeGroupResult & { reconciled: boolean }) => void;
  onError?: (error: unknown) => void;
}

/** How many times a group's files are read while git keeps moving HEAD before it is written as it stands. */
const MOST_READS = 3;

export type RestoreOptions = PlanOptions & ExecuteOptions & Pick<RescanOptions, 'exclude' | 'signal' | 'onProgress'> & Pick<WriterWait, 'onWait'>;

/** A snapshot restore and the capture before it. */
export interface RestoreRun extends RestoreOutcome {
  capture: RescanOutcome;
}

export class ProjectRecorder {
  readonly hooks = new CommitHooks();
  private readonly watchesStarting = new WeakMap<OpenProject, Promise<void>>();

  constructor(private readonly options: RecorderOptions = {}) {}

  addBeforeCommit(hook: BeforeCommitHook): () => void {
    return this.hooks.add(hook);
  }

  /** A project's first copy when it has no baseline yet, else a rescan; the exclude patterns are kept for later rescans. */
  open(
    project: OpenProject,
    options: FirstCopyOptions & RescanOptions & WriterWait & { writtenThrough?: number },
  ): Promise<{ firstCopy: FirstCopyResult } | { rescan: RescanOutcome }> {
    if (options.exclude) project.exclude = options.exclude;
    // Decided as the one writer: a process that copied this folder meanwhile left a baseline, and
    // this open is then a rescan.
    return project.serial(async () => {
      // Renames an older build recorded are scored as git scores them, once (rescoreRenames.ts).
      rescoreRenames(project.store);
      if (project.store.index.snapshotReads.baselineId() === undefined) {
        const copied = await firstCopy(project.store, options);
        await backupIndexIfDue(project.store, { force: true, pool: options.pool });
        return { firstCopy: copied };
      }
      // The data folder's recorder wrote every change it heard up to the command's ask: no walk.
      const rescanned = options.writtenThrough !== undefined ? writtenByRecorder(project) : await this.rescanNow(project, options);
      await backupIndexIfDue(project.store, { pool: options.pool });
      return { rescan: rescanned };
    }, options);
  }

  rescan(project: OpenProject, options: RescanOptions & WriterWait = {}): Promise<RescanOutcome> {
    if (options.exclude) project.exclude = options.exclude;
    return project.serial(() => this.rescanNow(project, options), options);
  }

  preview(project: OpenProject, snapshotId: number, options: PlanOptions & Pick<RescanOptions, 'exclude'> & WriterWait = {}): Promise<RestorePreview> {
    return project.serial(async () => {
      await this.rescanNow(project, { exclude: options.exclude });
      const { store } = project;
      const context = { snapshotBranch: store.index.snapshotReads.snapshot(snapshotId)?.branch ?? null, branchNow: store.git.current().branch };
      return planSummary(planRestore(store, snapshotId, options), options.prefix, context);
    }, options);
  }

  restore(project: OpenProject, snapshotId: number, options: RestoreOptions = {}): Promise<RestoreRun> {
    return project.serial(async () => {
      const undoing = undoesSnapshotRestore(project.store, snapshotId);
      // Capture before overwrite: everything the restore may overwrite or delete is recorded now.
      const capture = await this.rescanNow(project, { exclude: options.exclude, signal: options.signal, onProgress: options.onProgress });
      const plan = planRestore(project.store, snapshotId, options);
      // Nothing changed since the restore it brings back from: it is that restore's undo.
      const origin = undoing && capture.snapshotId === undefined && capture.checkpointId === undefined ? 'undo' : 'restore';
      return { ...(await executeRestore(project.store, plan, options, origin)), capture };
    }, options);
  }

  restoreFile(project: OpenProject, path: string, versionId: number, options: WriterWait & { keepSpecialModes?: boolean } = {}): Promise<RestoreFileResult> {
    return project.serial(() => {
      // Never write into a folder that vanished or was replaced: it is not this history's folder.
      project.store.assertFolderUnchanged();
      return restoreFile(project.store, path, versionId, recordPaths, options);
    }, options);
  }

  /** verify, then (as the writer) the damaged blobs written again from the folder's files. */
  verifyAndRepair(project: OpenProject, onProgress: ProgressSink, options: Pick<VerifyOptions, 'signal' | 'remoteOnly'> & WriterWait): Promise<VerifyResult> {
    return project.serial(() => verifyStore(project.store, onProgress, { signal: options.signal, remoteOnly: options.remoteOnly, repair: true }), options);
  }

  restoreHunk(project: OpenProject, path: string, versionId: number, hunk: HunkRange, diskHash: string, wait: WriterWait = {}): Promise<RestoreFileResult> {
    return project.serial(() => {
      project.store.assertFolderUnchanged();
      return restoreHunk(project.store, path, versionId, hunk, diskHash, recordPaths);
    }, wait);
  }

  restoreFromGit(project: OpenProject, path: string, source: GitSource, wait: WriterWait = {}): Promise<RestoreFileResult> {
    return project.serial(() => {
      project.store.assertFolderUnchanged();
      return restoreFromGit(project.store, path, source, recordPaths);
    }, wait);
  }

  checkpoint(project: OpenProject, label: string, options: Pick<RescanOptions, 'exclude'> & WriterWait = {}): Promise<number> {
    return project.serial(async () => {
      await this.rescanNow(project, { exclude: options.exclude });
      return insertCheckpoint(project.store, label, { pin: true });
    }, options);
  }

  /** Starts the project's live watcher, unless it has one (or one is starting: the first caller's options hold). */
  watch(project: OpenProject, options: WatchOptions = {}): Promise<void> {
    if (project.watcher) return Promise.resolve();
    // The recorder of every project and a window opening the same project may ask at once: one watch.
    let starting = this.watchesStarting.get(project);
    if (!starting) {
      starting = this.startWatch(project, options).finally(() => this.watchesStarting.delete(project));
      this.watchesStarting.set(project, starting);
    }
    return starting;
  }

  /**
   * A rescan during which the project's watch is placed, each folder's just before the walk lists
   * it: every file is lstat'ed once, and a change made at any moment of the rescan is either
   * walked or heard (its group is written after the rescan). A project watched already, or whose
   * watch is starting, is rescanned and its watch left as it is.
   */
  catchUpAndWatch(project: OpenProject, options: RescanOptions & WriterWait, watch: WatchOptions): Promise<RescanOutcome> {
    if (project.watcher || this.watchesStarting.has(project)) {
      return this.rescan(project, options).then(async (outcome) => {
        await this.watch(project, watch);
        return outcome;
      });
    }
    if (watch.exclude) project.exclude = watch.exclude;
    const caughtUp = project.serial(async () => {
      const watcher = ProjectWatcher.placing(project.root, await this.watcherOptions(project, undefined, watch));
      try {
        const onFolder = (path: string) => {
          watcher.placeFolder(path);
          options.onFolder?.(path);
        };
        const outcome = await this.rescanNow(project, { ...options, onFolder });
        watcher.placed();
        project.watcher = watcher;
        return outcome;
      } catch (error) {
        watcher.abandon();
        throw error;
      }
    }, options);
    // A window asking for the same project's watch meanwhile gets this one.
    const starting = caughtUp.then(
      () => undefined,
      () => undefined,
    );
    this.watchesStarting.set(project, starting);
    void starting.finally(() => this.watchesStarting.delete(project));
    return caughtUp;
  }

  private async startWatch(project: OpenProject, options: WatchOptions): Promise<void> {
    if (options.exclude) project.exclude = options.exclude;
    // Taken once: a later watch of the project lists its folders itself, or starts from a later rescan's.
    const walked = project.walked;
    project.walked = undefined;
    project.watcher = await ProjectWatcher.start(project.root, await this.watcherOptions(project, walked, options));
  }

  private async watcherOptions(project: OpenProject, walked: WalkedFolders | undefined, options: WatchOptions): Promise<ProjectWatcherOptions> {
    return {
      walked,
      quietMs: options.quietMs,
      maxGroupMs: options.maxGroupMs,
      maxPaths: options.maxPaths,
      reconcileEveryMs: options.reconcileEveryMs,
      fallbackRescanMs: options.fallbackRescanMs,
      onWatchLimit: options.onWatchLimit,
      exclude: this.excludeOf(project),
      tracked: await project.store.git.tracked(),
      git: gitWatched(project),
      skip: project.store.dataFolder,
      onError: options.onError,
      commit: (group) =>
        project.serial(async () => {
          const result = await this.commitGroup(project, group);
          options.onGroup?.(result);
        }),
    };
  }

  private async commitGroup(project: OpenProject, group: ChangeGroupRequest): Promise<ChangeGroupResult & { reconciled: boolean }> {
    if (group.doubt.length > 0) {
      // A periodic check of an idle project finds nothing: it leaves history.db as it was.
      const result = await this.rescanNow(project, { keepWhenUnchanged: group.doubt.every((d) => d === PERIODIC_CHECK) });
      return { snapshotId: result.snapshotId, checkpointId: result.checkpointId, changed: result.changed, reconciled: true };
    }
    const { store } = project;
    const rules = this.moveRules(project);
    try {
      const result = await againIfCollected(async () => {
        for (let attempt = 1; ; attempt++) {
          // Moves of HEAD whose trees left the disk first, each its own snapshot; the last one's
          // files are recorded from the disk with the group, heard or not.
          const moves = await recordGoneMoves(store, rules);
          store.git.pinHeadLog(moves.until, moves.at);
          const moved = new Set(moves.paths.filter(rules.keep));
          // The group ended at the move (git writes the tree, then moves HEAD): its files the move did
          // not write were written before it, at the HEAD before, and are a snapshot of their own.
          if (moves.before && moved.size > 0)
            await this.commitBeforeMove(
              store,
              group.paths.filter((path) => !moved.has(path)),
              moves.before,
              moves,
            );
          const paths = [...new Set([...group.paths.filter((path) => moved.has(path) || !moves.before), ...moved])].sort();
          const prepared = await prepareChanges(store, paths, undefined, this.options.pool, this.options.maxFileSize?.());
          // git moved HEAD again while the files were read: they may hold the next move's bytes.
          if (attempt < MOST_READS && movedSince(store, moves)) continue;
          // Files missing because their whole folder went away (moved, unmounted) are not deletions.
          store.assertFolderUnchanged();
          return commitChangeGroup(store, prepared, { beforeCommit: this.runHooks, massChange: this.options.massChange });
        }
      });
      return { ...result, reconciled: false };
    } finally {
      store.git.pinHeadLog(undefined);
    }
  }

  /** Edits heard before a move of HEAD closed their group: written first, as plain changes at the HEAD they were made on. */
  private async commitBeforeMove(store: ProjectStore, paths: readonly string[], before: BeforeMove, { until, at }: GroupMoves): Promise<void> {
    if (paths.length === 0) return;
    const prepared = await prepareChanges(store, paths, undefined, this.options.pool, this.options.maxFileSize?.());
    store.assertFolderUnchanged();
    // Its snapshot holds the reflog up to before the move: the move is still the group's to name.
    store.git.pinHeadLog(before.logAt);
    try {
      await commitChangeGroup(store, prepared, { massChange: this.options.massChange, at: { head: before.head, branch: before.branch } });
    } finally {
      store.git.pinHeadLog(until, at);
    }
  }

  private async rescanNow(project: OpenProject, options: RescanOptions): Promise<RescanOutcome> {
    const hooks = options.beforeCommit ?? this.runHooks;
    let outcome: RescanOutcome | undefined;
    for (let attempt = 1; !outcome; attempt++) {
      // The moves whose trees left the disk are recorded first; the walk records the last one.
      const moves = await recordGoneMoves(project.store, this.moveRules(project, options.exclude));
      project.store.git.pinHeadLog(moves.until, moves.at);
      // git moved HEAD again while the walk read the files: they may hold the next move's bytes, so
      // the walk is made again. Not for a walk that places a watch on each folder it lists (once).
      const again = attempt < MOST_READS && options.onFolder === undefined;
      try {
        outcome = await rescan(project.store, {
          pool: this.options.pool,
          massChange: this.options.massChange,
          ...options,
          beforeCommit: (store, paths) => {
            if (again && movedSince(store, moves)) throw new MovedWhileRead();
            return hooks(store, paths);
          },
          exclude: this.excludeOf(project, options.exclude),
          maxFileSize: options.maxFileSize !== undefined ? options.maxFileSize : this.options.maxFileSize?.(),
        });
      } catch (error) {
        if (!(error instanceof MovedWhileRead)) throw error;
      } finally {
        project.store.git.pinHeadLog(undefined);
      }
    }
    // A watch started next begins from this walk's folders (a watch running needs none), when the
    // walk left out what the watch will: the same exclude patterns.
    const sameRules = options.exclude === undefined || options.exclude === project.exclude;
    project.walked = project.watcher === undefined && sameRules ? outcome.walked : undefined;
    // Unchanged files are not read by a rescan: one that holds a damaged blob's bytes is read now.
    repairFromFolder(project.store, options.signal);
    return outcome;
  }

  /** What a move of HEAD recorded from git's objects leaves out, as a record from the disk does. */
  private moveRules(project: OpenProject, exclude?: readonly string[]): MoveRules {
    const matcher = new IgnoreMatcher(project.root, this.excludeOf(project, exclude), project.store.dataFolder);
    return { keep: (path) => !matcher.leftOut(path), maxFileSize: this.options.maxFileSize?.() };
  }

  private excludeOf(project: OpenProject, given?: readonly string[]): readonly string[] | undefined {
    return given ?? project.exclude ?? this.options.exclude?.();
  }

  private readonly runHooks: BeforeCommitHook = (store: ProjectStore, paths) => this.hooks.run(store, paths);
}

/** An open's outcome when the recorder that watches the project wrote what it heard: nothing walked, nothing stat'ed but the folder itself. */
function writtenByRecorder(project: OpenProject): RescanOutcome {
  project.store.assertFolderUnchanged();
  count('open.rescansSkipped');
  return { snapshotId: undefined, checkpointId: undefined, changed: [], paths: 0, hashed: 0, ms: 0, unreadable: [], ignored: 0, walked: undefined };
}

/** A rescan's walk read files while git moved HEAD: nothing of it is written, it is made again. */
class MovedWhileRead extends Error {}

/** The project's own git folder, watched for HEAD's moves and index writes; none outside a repository. */
function gitWatched(project: OpenProject): ProjectWatcherOptions['git'] {
  const repo = project.store.git.repository();
  return repo ? { gitDir: repo.gitDir, tracked: () => project.store.git.tracked() } : undefined;
}
