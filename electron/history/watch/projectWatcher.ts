import { ChangeBatcher, DEFAULT_TIMING, MANY_CHANGES, type BatchTiming, type ChangeGroupRequest } from './changeBatcher.js';
import { FolderWatches } from './folderWatches.js';
import type { TrackedPaths } from '../git/trackedPaths.js';
import type { WalkedFolders } from '../walk/walkedFolders.js';
import { IgnoreMatcher } from './ignoreMatcher.js';
import { GitWatch } from './gitWatch.js';
import { failurePoint } from '../faultPoint.js';
import { count } from '../trace.js';

// The live watcher of one open project (a watch per folder: folderWatches.ts). File events feed
// the change batcher; anything that makes the event stream doubtful (an error, a folder created or
// removed, whose first files a watch can miss, an edited .gitignore, a name that is not UTF-8, the
// moment a watch not started from a walk is in place) asks for a
// reconciling rescan instead: the rescan compares the whole tree with the stat cache, so no change
// is lost whatever the watcher saw. Groups are handed to `commit` one at a time, in order; a
// commit that fails marks the next group doubtful, so its changes are found again. When the OS
// refuses the watch for a limit (inotify's ENOSPC, EMFILE), the project is rescanned every
// `fallbackRescanMs` instead: nothing is missed, only found later.

/**
 * An event queue that overflows (inotify's) can drop events without any error reaching us (Node
 * does not pass IN_Q_OVERFLOW on), so a reconciling rescan also runs while watching: this long
 * after the watch began or after the last event heard. Events are dropped only while events come,
 * so each check that follows a stretch with none waits twice as long as the one before, up to
 * MAX_RECONCILE_MS (a network file system, whose changes from elsewhere no event tells, is still
 * looked at). A check that finds nothing costs a walk, hashes nothing and writes nothing.
 */
export const DEFAULT_RECONCILE_MS = 5 * 60 * 1000;
/** The longest wait between two checks of a project where nothing is heard. */
export const MAX_RECONCILE_MS = 80 * 60 * 1000;
/** The doubt of a periodic check (versions/projectRecorder.ts writes nothing when it finds nothing). */
export const PERIODIC_CHECK = 'periodic check';

/** How often a project the OS cannot watch is rescanned (the fallbackRescanSeconds setting). */
export const DEFAULT_FALLBACK_RESCAN_MS = 60 * 1000;

export interface ProjectWatcherOptions extends Partial<BatchTiming> {
  exclude?: readonly string[];
  /** The files git tracked when the watch began: watched whatever a .gitignore says. */
  tracked?: TrackedPaths;
  /** The project's git folder and its tracked files asked again: HEAD's moves end groups, a file tracked anew is recorded. */
  git?: { gitDir: string; tracked: () => Promise<TrackedPaths | undefined> };
  /** A folder never watched (the data folder inside the project). */
  skip?: string;
  /** The folders the rescan just before listed: watched without listing them again. */
  walked?: WalkedFolders;
  /** How long after the last event heard a reconciling rescan runs while watching (default 5 minutes, doubled after each quiet check). */
  reconcileEveryMs?: number;
  /** How often a rescan runs instead when the OS refuses the watch for a limit (default 1 minute). */
  fallbackRescanMs?: number;
  /** Told once, when the watch gave way to periodic rescans (the OS's error). */
  onWatchLimit?: (error: unknown) => void;
  /** Writes one group; the engine serialises it with every other write to the store. */
  commit: (group: ChangeGroupRequest) => Promise<void>;
  onError?: (error: unknown) => void;
}

export class ProjectWatcher {
  private readonly batcher: ChangeBatcher;
  private readonly matcher: IgnoreMatcher;
  private watches: FolderWatches | undefined;
  private gitWatch: GitWatch | undefined;
  /** The tracked set being asked again; `again` when the index changed meanwhile. */
  private refreshing: Promise<void> | undefined;
  private refreshAgain = false;
  private chain: Promise<void> = Promise.resolve();
  private reconcileTimer: NodeJS.Timeout | undefined;
  private fallbackTimer: NodeJS.Timeout | undefined;
  /** The wait before the next periodic check, and when it is due (Date.now()). */
  private reconcileDelay = 0;
  private reconcileDue = 0;
  /** Something was heard since the last periodic check. */
  private heardSinceCheck = false;
  /** Groups whose commit failed: a flush that saw one did not write everything it was asked to. */
  private failedCommits = 0;
  /** An empty group for a move of HEAD is waiting its turn: more events of the same move ask for no other. */
  private moveQueued = false;

  private constructor(
    readonly root: string,
    private readonly options: ProjectWatcherOptions,
  ) {
    this.matcher = new IgnoreMatcher(root, options.exclude, options.skip, options.tracked);
    this.batcher = new ChangeBatcher(
      { quietMs: options.quietMs ?? DEFAULT_TIMING.quietMs, maxGroupMs: options.maxGroupMs ?? DEFAULT_TIMING.maxGroupMs, maxPaths: options.maxPaths },
      (group) => this.enqueue(group),
    );
  }

  /** Starts watching; resolves once the watch is in place. */
  static async start(root: string, options: ProjectWatcherOptions): Promise<ProjectWatcher> {
    const self = new ProjectWatcher(root, options);
    await self.begin();
    return self;
  }

  /**
   * A watch placed folder by folder as a rescan's walk lists them (`placeFolder`, the walk's
   * onFolder), then begun with `placed` once the rescan is done. What changes during the walk is
   * either walked or heard: its group is written after the rescan, as the writer's next turn.
   */
  static placing(root: string, options: ProjectWatcherOptions): ProjectWatcher {
    const self = new ProjectWatcher(root, options);
    self.open();
    return self;
  }

  /** Watches a folder the walk is about to list. */
  placeFolder(path: string): void {
    this.watches?.watchListed(path);
  }

  /** The walk placed every watch: from now on the watch runs as one started by `start`. */
  placed(): void {
    if (!this.rescannedOnly) this.reconcileEvery();
  }

  /** Drops a watch whose rescan failed, its open group with it: nothing was recorded, the next catch-up walks again. */
  abandon(): void {
    clearTimeout(this.reconcileTimer);
    clearInterval(this.fallbackTimer);
    this.closeWatch();
    this.batcher.stop();
  }

  /** Stops watching, commits the open group, and waits for every commit to finish. */
  async stop(): Promise<void> {
    clearTimeout(this.reconcileTimer);
    clearInterval(this.fallbackTimer);
    this.closeWatch();
    this.batcher.flush();
    await this.settled();
    this.batcher.stop(); // a commit that failed while stopping asks for no more work
  }

  /** Resolves when every group handed over so far has been committed (or failed). */
  settled(): Promise<void> {
    return this.chain;
  }

  /** Commits the open group now instead of waiting for the quiet window. */
  flush(): Promise<void> {
    this.batcher.flush();
    return this.settled();
  }

  /**
   * Writes every event heard so far now, not after the quiet window (a command asked for the
   * history as the folder is): 'written' once all of it is committed, 'rescanning' when the OS
   * refused the watch (changes are found by periodic rescans only), 'failed' when a group could
   * not be written (its changes wait for the next group's rescan).
   */
  async writeHeard(): Promise<'written' | 'rescanning' | 'failed'> {
    if (this.rescannedOnly) return 'rescanning';
    const failedBefore = this.failedCommits;
    await this.flush();
    return this.failedCommits === failedBefore ? 'written' : 'failed';
  }

  /** Whether changes were heard that no group has taken yet (a storm may still be going on). */
  get pending(): boolean {
    return this.batcher.pending;
  }

  /** Whether the project is rescanned periodically because the OS refused its watch. */
  get rescannedOnly(): boolean {
    return this.fallbackTimer !== undefined;
  }

  /** How long the next periodic check waits (it doubles while nothing is heard). */
  get reconcileDelayMs(): number {
    return this.reconcileDelay;
  }

  private async begin(): Promise<void> {
    const watches = this.open();
    await watches.watchAll(this.options.walked);
    if (this.rescannedOnly) return;
    // Started from a walk, the watch told what changed since it (folderWatches.ts); otherwise
    // whatever changed between the last rescan and this moment was seen by neither.
    if (!this.options.walked) this.batcher.markDoubt('watch started');
    this.reconcileEvery();
  }

  /** The folders' watches, none placed yet. */
  private open(): FolderWatches {
    count('watch.open');
    const watches = new FolderWatches(this.root, (path, isDir) => this.matcher.ignored(path, isDir), {
      file: (path) => this.file(path),
      doubt: (reason) => {
        this.heard();
        this.batcher.markDoubt(reason);
      },
      limit: (error) => this.fallBack(error),
      rescanDue: () => this.batcher.rescanDue,
      heard: () => {
        this.heard();
        this.batcher.heard();
      },
    });
    this.watches = watches;
    const git = this.options.git;
    if (git) this.gitWatch = new GitWatch(git.gitDir, { headMoved: () => this.headMoved(), indexChanged: () => this.trackedChanged() });
    try {
      // Stands for the OS refusing a watch.
      failurePoint('watch-setup');
    } catch (error) {
      this.fallBack(error);
    }
    return watches;
  }

  private reconcileEvery(): void {
    this.armCheck(this.baseReconcileMs());
  }

  private baseReconcileMs(): number {
    return this.options.reconcileEveryMs ?? DEFAULT_RECONCILE_MS;
  }

  private armCheck(ms: number): void {
    clearTimeout(this.reconcileTimer);
    this.reconcileDelay = ms;
    this.reconcileDue = Date.now() + ms;
    this.reconcileTimer = setTimeout(() => this.check(), ms);
    this.reconcileTimer.unref();
  }

  private check(): void {
    count('idle.wakeups');
    count('watch.periodicChecks');
    const base = this.baseReconcileMs();
    const next = this.heardSinceCheck ? base : Math.min(this.reconcileDelay * 2, Math.max(base, MAX_RECONCILE_MS));
    this.heardSinceCheck = false;
    this.batcher.markDoubt(PERIODIC_CHECK);
    this.armCheck(next);
  }

  /** An event: the next check comes at most the base wait from now (what a full queue dropped is found then). */
  private heard(): void {
    this.heardSinceCheck = true;
    if (this.reconcileTimer === undefined || this.rescannedOnly) return;
    const base = this.baseReconcileMs();
    if (this.reconcileDue - Date.now() > base) this.armCheck(base);
  }

  /**
   * The OS refused a watch for a limit: a partial watch would miss changes in the folders it could
   * not watch, so the whole watch gives way (freeing its watches for other projects) to periodic
   * rescans, the first at once (what changed meanwhile was seen by nobody).
   */
  private fallBack(error: unknown): void {
    if (this.rescannedOnly) return;
    clearTimeout(this.reconcileTimer);
    this.reconcileTimer = undefined;
    this.closeWatch();
    // Keeps the process alive as the watch did.
    this.fallbackTimer = setInterval(() => this.batcher.markDoubt('periodic rescan'), this.options.fallbackRescanMs ?? DEFAULT_FALLBACK_RESCAN_MS);
    this.batcher.markDoubt('watch refused');
    this.options.onWatchLimit?.(error);
  }

  /** Closes the folders' watches; the trace counts the projects watched in the process. */
  private closeWatch(): void {
    this.gitWatch?.close();
    this.gitWatch = undefined;
    const watches = this.watches;
    if (!watches) return;
    this.watches = undefined;
    count('watch.open', -1);
    watches.close();
  }

  /** git wrote its index: the tracked set is asked again (one ask at a time, one more if it changed meanwhile). */
  private trackedChanged(): void {
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    this.refreshing = this.refreshTracked()
      .catch((error: unknown) => this.options.onError?.(error))
      .finally(() => {
        this.refreshing = undefined;
        if (this.refreshAgain) {
          this.refreshAgain = false;
          this.trackedChanged();
        }
      });
  }

  /**
   * A file git tracks now that a .gitignore left out until now (`git add -f`) joins the open group
   * with what it holds now, its first content; folders holding such files are watched from now on.
   */
  private async refreshTracked(): Promise<void> {
    const tracked = await this.options.git?.tracked();
    if (!tracked || !this.watches) return;
    const before = this.matcher.trackedNow;
    const newlyTracked: string[] = [];
    for (const path of tracked.files) if (!before?.files.has(path) && this.matcher.ignored(path, false)) newlyTracked.push(path);
    const newFolders = [...tracked.folders].filter((folder) => !before?.folders.has(folder)).sort();
    this.matcher.setTracked(tracked);
    await this.watches.watchFolders(newFolders);
    for (const path of newlyTracked) this.batcher.add(path);
  }

  private file(path: string): void {
    this.heard();
    if (path === '.gitignore' || path.endsWith('/.gitignore')) {
      this.matcher.invalidate();
      this.batcher.markDoubt('ignore rules changed');
      // A folder the old rules left out is watched from now on (and one the new rules leave out is not).
      void this.watches?.refresh();
    }
    this.batcher.add(path);
  }

  /**
   * git moved HEAD: the open group ends here. With none open (the move changed no file: a commit of
   * edits already recorded, a checkout of a commit with the same tree) an empty group is written
   * all the same, so the move is a snapshot of its own; the events of one move (HEAD, its reflog)
   * ask for one.
   */
  private headMoved(): void {
    if (this.batcher.pending) return this.batcher.flush();
    if (this.moveQueued || this.rescannedOnly) return;
    this.moveQueued = true;
    this.enqueue({ paths: [], doubt: [] });
  }

  private enqueue(group: ChangeGroupRequest): void {
    this.chain = this.chain.then(async () => {
      // From here on, a move heard is after what this group reads.
      this.moveQueued = false;
      try {
        // Folders made during a storm whose events were passed over are watched before its rescan walks.
        if (group.doubt.includes(MANY_CHANGES)) await this.watches?.relistIfDue();
        await this.options.commit(group);
      } catch (error) {
        this.failedCommits++;
        this.batcher.markDoubt('commit failed');
        this.options.onError?.(error);
      }
    });
  }
}
