import { relative, sep } from 'node:path';
import type { FSWatcher } from 'chokidar';
import { ChangeBatcher, DEFAULT_TIMING, type BatchTiming, type ChangeGroupRequest } from './changeBatcher.js';
import type { TrackedPaths } from '../git/trackedPaths.js';
import { IgnoreMatcher } from './ignoreMatcher.js';
import { RawFolderWatches } from './rawFolderWatches.js';
import { isWatchLimit } from './watchLimit.js';
import { failurePoint } from '../faultPoint.js';
import { count } from '../trace.js';

// The live watcher of one open project (chokidar). File events feed the change batcher; anything
// that makes the event stream doubtful (an error, a folder created or removed, whose first files
// a watcher can miss, an edited .gitignore, the moment the watch becomes ready) asks for a
// reconciling rescan instead: the rescan compares the whole tree with the stat cache, so no change
// is lost whatever the watcher saw. Groups are handed to `commit` one at a time, in order; a
// commit that fails marks the next group doubtful, so its changes are found again. When the OS
// refuses the watch for a limit (inotify's ENOSPC, EMFILE), the project is rescanned every
// `fallbackRescanMs` instead: nothing is missed, only found later.

/**
 * An event queue that overflows (inotify's) can drop events without any error reaching us, so a
 * reconciling rescan also runs every so often while watching. A rescan that finds nothing costs
 * a walk and hashes nothing.
 */
export const DEFAULT_RECONCILE_MS = 5 * 60 * 1000;

/** How often a project the OS cannot watch is rescanned (the fallbackRescanSeconds setting). */
export const DEFAULT_FALLBACK_RESCAN_MS = 60 * 1000;

const NOT_UTF8 = 'a name that is not UTF-8';

/** Whether a path from chokidar lost bytes that are not UTF-8 (a genuine U+FFFD costs a rescan). */
function lostBytes(path: string): boolean {
  return path.includes('\uFFFD');
}

export interface ProjectWatcherOptions extends Partial<BatchTiming> {
  exclude?: readonly string[];
  /** The files git tracked when the watch began: watched whatever a .gitignore says. */
  tracked?: TrackedPaths;
  /** A folder never watched (the data folder inside the project). */
  skip?: string;
  /** How often a reconciling rescan runs while watching (default 5 minutes). */
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
  private readonly rawFolders: RawFolderWatches;
  private watcher: FSWatcher | undefined;
  private chain: Promise<void> = Promise.resolve();
  private reconcileTimer: NodeJS.Timeout | undefined;
  private fallbackTimer: NodeJS.Timeout | undefined;
  private ready: (() => void) | undefined;

  private constructor(
    readonly root: string,
    private readonly options: ProjectWatcherOptions,
  ) {
    this.matcher = new IgnoreMatcher(root, options.exclude, options.skip, options.tracked);
    this.rawFolders = new RawFolderWatches(
      () => this.batcher.markDoubt(NOT_UTF8),
      (abs) => this.matcher.ignored(this.rel(abs), true),
    );
    this.batcher = new ChangeBatcher(
      { quietMs: options.quietMs ?? DEFAULT_TIMING.quietMs, maxGroupMs: options.maxGroupMs ?? DEFAULT_TIMING.maxGroupMs },
      (group) => this.enqueue(group),
    );
  }

  /** Starts watching; resolves once the watch is in place. */
  static async start(root: string, options: ProjectWatcherOptions): Promise<ProjectWatcher> {
    const self = new ProjectWatcher(root, options);
    await self.begin();
    return self;
  }

  /** Stops watching, commits the open group, and waits for every commit to finish. */
  async stop(): Promise<void> {
    clearInterval(this.reconcileTimer);
    clearInterval(this.fallbackTimer);
    await this.closeWatch();
    this.rawFolders.close();
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

  /** Whether the project is rescanned periodically because the OS refused its watch. */
  get rescannedOnly(): boolean {
    return this.fallbackTimer !== undefined;
  }

  private async begin(): Promise<void> {
    // Loaded on first use: the CLI's one-shot commands never pay for the watcher's code.
    const { watch } = await import('chokidar');
    count('watch.open');
    const watcher = watch(this.root, {
      ignoreInitial: true,
      followSymlinks: false,
      persistent: true,
      ignored: (abs, stats) => this.matcher.ignored(this.rel(abs), stats?.isDirectory() ?? false),
    });
    this.watcher = watcher;
    watcher.on('add', (abs) => this.file(abs));
    watcher.on('change', (abs) => this.file(abs));
    watcher.on('unlink', (abs) => this.file(abs));
    watcher.on('addDir', (abs) => this.rel(abs) !== '' && this.batcher.markDoubt('folder created'));
    watcher.on('unlinkDir', () => this.batcher.markDoubt('folder removed'));
    // chokidar names paths with Node's strings, which turn bytes that are not UTF-8 into U+FFFD: it
    // cannot stat such a path, so it reports no add or change for it, only the raw event. Such a
    // path asks for a reconciling rescan, which lists folders as bytes and finds the real name.
    // Nor can it watch inside such a folder: rawFolderWatches.ts does, by the folder's bytes.
    watcher.on('raw', (_event, name, details) => {
      if (typeof name !== 'string' || !lostBytes(name)) return;
      this.batcher.markDoubt(NOT_UTF8);
      const dir = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
      if (typeof dir === 'string') this.rawFolders.discover(dir);
    });
    watcher.on('error', (error) => {
      if (isWatchLimit(error)) {
        this.fallBack(error);
        return;
      }
      this.batcher.markDoubt('watcher error');
      this.options.onError?.(error);
    });
    return new Promise((resolve) => {
      this.ready = resolve;
      watcher.once('ready', () => {
        if (this.rescannedOnly) return;
        // chokidar leaves such folders out of what it watches without a word: look for them once.
        const dirs = Object.keys(watcher.getWatched()).filter((dir) => dir === this.root || dir.startsWith(`${this.root}/`));
        void this.rawFolders.discoverAll(dirs);
        // Whatever changed between the open's rescan and this moment was seen by neither.
        this.batcher.markDoubt('watch started');
        this.reconcileTimer = setInterval(() => this.batcher.markDoubt('periodic check'), this.options.reconcileEveryMs ?? DEFAULT_RECONCILE_MS);
        this.reconcileTimer.unref();
        resolve();
      });
      // Stands for the OS refusing a watch, which chokidar reports as an error event.
      try {
        failurePoint('watch-setup');
      } catch (error) {
        watcher.emit('error', error);
      }
    });
  }

  /**
   * The OS refused a watch for a limit: a partial watch would miss changes in the folders it could
   * not watch, so the whole watch gives way (freeing its watches for other projects) to periodic
   * rescans, the first at once (what changed meanwhile was seen by nobody).
   */
  private fallBack(error: unknown): void {
    if (this.rescannedOnly) return;
    clearInterval(this.reconcileTimer);
    void this.closeWatch();
    this.rawFolders.close();
    // Keeps the process alive as the watch did.
    this.fallbackTimer = setInterval(() => this.batcher.markDoubt('periodic rescan'), this.options.fallbackRescanMs ?? DEFAULT_FALLBACK_RESCAN_MS);
    this.batcher.markDoubt('watch refused');
    this.options.onWatchLimit?.(error);
    this.ready?.();
  }

  /** Closes chokidar's watch; the trace counts the watches open in the process. */
  private async closeWatch(): Promise<void> {
    const watcher = this.watcher;
    if (!watcher) return;
    this.watcher = undefined;
    count('watch.open', -1);
    await watcher.close();
  }

  private file(abs: string): void {
    const path = this.rel(abs);
    if (path === '' || this.matcher.ignored(path, false)) return;
    if (lostBytes(path)) {
      this.batcher.markDoubt(NOT_UTF8);
      return;
    }
    if (path === '.gitignore' || path.endsWith('/.gitignore')) {
      this.matcher.invalidate();
      this.batcher.markDoubt('ignore rules changed');
    }
    this.batcher.add(path);
  }

  private rel(abs: string): string {
    const rel = relative(this.root, abs);
    return sep === '/' ? rel : rel.split(sep).join('/');
  }

  private enqueue(group: ChangeGroupRequest): void {
    this.chain = this.chain.then(async () => {
      try {
        await this.options.commit(group);
      } catch (error) {
        this.batcher.markDoubt('commit failed');
        this.options.onError?.(error);
      }
    });
  }
}
