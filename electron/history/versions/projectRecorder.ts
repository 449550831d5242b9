import type { ProjectStore } from '../project/projectStore.js';
import type { WriterWait } from '../project/writerLock.js';
import { planRestore, planSummary, type PlanOptions, type RestorePreview } from '../restore/planRestore.js';
import { executeRestore, type ExecuteOptions, type RestoreSnapshotResult } from '../restore/restoreSnapshot.js';
import type { CopyPool } from '../store/copyPool.js';
import type { BatchTiming, ChangeGroupRequest } from '../watch/changeBatcher.js';
import { ProjectWatcher } from '../watch/projectWatcher.js';
import { commitChangeGroup, type ChangeGroupResult, type MassChangeRule } from './changeGroup.js';
import { insertCheckpoint } from './checkpoint.js';
import { CommitHooks, type BeforeCommitHook } from './commitHooks.js';
import { prepareChanges } from './recordPaths.js';
import { rescan, type RescanOptions, type RescanResult } from './rescan.js';

// Everything that writes versions after the baseline, for every open project of the engine: the
// rescan, the live watchers' change groups, restores and checkpoints. Writes to one store run one
// at a time (a restore never interleaves with a change group), each holding the store's writer
// lock (so no other process writes meanwhile), and each starts by bringing the history up to date
// with the disk, so every byte a restore overwrites is recorded first.

export interface RecorderOptions {
  massChange?: MassChangeRule;
  pool?: CopyPool;
  /** The exclude patterns of the settings, for a store not opened in this process (a CLI restore). */
  exclude?: () => readonly string[];
  /** The maxFileSize setting: new files over it are not recorded. */
  maxFileSize?: () => number | null;
}

export interface WatchOptions extends Partial<BatchTiming> {
  exclude?: readonly string[];
  reconcileEveryMs?: number;
  /** Called after each change group is written (or found empty). */
  onGroup?: (result: ChangeGroupResult & { reconciled: boolean }) => void;
  onError?: (error: unknown) => void;
}

export type RestoreOptions = PlanOptions & ExecuteOptions & Pick<RescanOptions, 'exclude'> & Pick<WriterWait, 'onWait'>;

export class ProjectRecorder {
  readonly hooks = new CommitHooks();
  private readonly queues = new Map<ProjectStore, Promise<unknown>>();
  private readonly watchers = new Map<ProjectStore, ProjectWatcher>();
  /** The exclude patterns each store was last opened with: later rescans use the same. */
  private readonly excludes = new Map<ProjectStore, readonly string[]>();

  constructor(private readonly options: RecorderOptions = {}) {}

  addBeforeCommit(hook: BeforeCommitHook): () => void {
    return this.hooks.add(hook);
  }

  rescan(store: ProjectStore, options: RescanOptions & WriterWait = {}): Promise<RescanResult> {
    if (options.exclude) this.excludes.set(store, options.exclude);
    return this.serial(store, () => this.rescanNow(store, options), options);
  }

  preview(store: ProjectStore, snapshotId: number, options: PlanOptions & Pick<RescanOptions, 'exclude'> = {}): Promise<RestorePreview> {
    return this.serial(store, async () => {
      await this.rescanNow(store, { exclude: options.exclude });
      return planSummary(planRestore(store, snapshotId, options));
    });
  }

  restore(store: ProjectStore, snapshotId: number, options: RestoreOptions = {}): Promise<RestoreSnapshotResult> {
    return this.serial(store, async () => {
      // Capture before overwrite: everything the restore may overwrite or delete is recorded now.
      await this.rescanNow(store, { exclude: options.exclude, signal: options.signal, onProgress: options.onProgress });
      const plan = planRestore(store, snapshotId, options);
      return executeRestore(store, plan, options);
    }, options);
  }

  checkpoint(store: ProjectStore, label: string, options: Pick<RescanOptions, 'exclude'> = {}): Promise<number> {
    return this.serial(store, async () => {
      await this.rescanNow(store, options);
      return insertCheckpoint(store, label);
    });
  }

  async watch(store: ProjectStore, options: WatchOptions = {}): Promise<void> {
    if (this.watchers.has(store)) return;
    if (options.exclude) this.excludes.set(store, options.exclude);
    const watcher = await ProjectWatcher.start(store.root, {
      quietMs: options.quietMs,
      maxGroupMs: options.maxGroupMs,
      reconcileEveryMs: options.reconcileEveryMs,
      exclude: this.excludeOf(store),
      skip: store.dataFolder,
      onError: options.onError,
      commit: (group) =>
        this.serial(store, async () => {
          const result = await this.commitGroup(store, group);
          options.onGroup?.(result);
        }),
    });
    this.watchers.set(store, watcher);
  }

  /** Stops a store's watcher after writing its open group. */
  async unwatch(store: ProjectStore): Promise<void> {
    const watcher = this.watchers.get(store);
    if (!watcher) return;
    this.watchers.delete(store);
    await watcher.stop();
  }

  watcher(store: ProjectStore): ProjectWatcher | undefined {
    return this.watchers.get(store);
  }

  async close(): Promise<void> {
    await Promise.all([...this.watchers.keys()].map((store) => this.unwatch(store)));
  }

  private async commitGroup(store: ProjectStore, group: ChangeGroupRequest): Promise<ChangeGroupResult & { reconciled: boolean }> {
    if (group.doubt.length > 0) {
      const result = await this.rescanNow(store, {});
      return { snapshotId: result.snapshotId, checkpointId: result.checkpointId, changed: result.changed, reconciled: true };
    }
    const prepared = await prepareChanges(store, group.paths, undefined, this.options.pool, this.options.maxFileSize?.());
    const result = await commitChangeGroup(store, prepared, { beforeCommit: this.runHooks, massChange: this.options.massChange });
    return { ...result, reconciled: false };
  }

  private rescanNow(store: ProjectStore, options: RescanOptions): Promise<RescanResult> {
    return rescan(store, {
      pool: this.options.pool,
      massChange: this.options.massChange,
      beforeCommit: this.runHooks,
      ...options,
      exclude: this.excludeOf(store, options.exclude),
      maxFileSize: options.maxFileSize !== undefined ? options.maxFileSize : this.options.maxFileSize?.(),
    });
  }

  private excludeOf(store: ProjectStore, given?: readonly string[]): readonly string[] | undefined {
    return given ?? this.excludes.get(store) ?? this.options.exclude?.();
  }

  private readonly runHooks: BeforeCommitHook = (store, paths) => this.hooks.run(store, paths);

  /** Runs other writes to a store (a first copy, a single-file restore) in turn with the recorder's own. */
  exclusive<T>(store: ProjectStore, work: () => Promise<T>, wait?: WriterWait): Promise<T> {
    return this.serial(store, work, wait);
  }

  /** Runs `work` after every earlier write to the same store has finished, holding its writer lock. */
  private serial<T>(store: ProjectStore, work: () => Promise<T>, wait: WriterWait = {}): Promise<T> {
    const previous = this.queues.get(store) ?? Promise.resolve();
    const held = () => store.writer.hold(work, { signal: wait.signal, onWait: wait.onWait });
    const next = previous.then(held, held);
    const tail = next.catch(() => undefined);
    this.queues.set(store, tail);
    void tail.then(() => {
      if (this.queues.get(store) === tail) this.queues.delete(store);
    });
    return next;
  }
}
