import type { ProjectStore } from '../project/projectStore.js';
import type { ProjectWrites } from '../project/projectWrites.js';
import type { WriterWait } from '../project/writerLock.js';
import type { ProjectWatcher, ProjectWatcherOptions } from '../watch/projectWatcher.js';
import type { SearchBuilder } from '../search/searchBuilder.js';
import type { BackgroundCompaction } from '../compact/backgroundCompaction.js';

// Everything this process holds for one open project, in one record keyed by its projectId: the
// store (blob folder and SQLite handle), the live watcher, the queue its writes run through (each
// holding the store's writer lock, so no other process writes meanwhile) and the exclude patterns
// it was opened with, and its background work (search index, compaction). Closing it closes all of them.

export class OpenProject implements ProjectWrites {
  readonly projectId: string;
  readonly root: string;
  /** Opened through engine.open (what the viewer calls open); a store opened only to be read is not. */
  opened = false;
  watcher: ProjectWatcher | undefined;
  /** The exclude patterns of its last open: later rescans use the same. */
  exclude: readonly string[] | undefined;
  /** The folders its last rescan listed, until a watch starts from them (walk/walkedFolders.ts). */
  walked: ProjectWatcherOptions['walked'];
  /** Builds and keeps current the search index in the background (in a process that watches). */
  searchBuilder: SearchBuilder | undefined;
  /** Compresses the store's raw blobs in the background (in a process that watches). */
  compaction: BackgroundCompaction | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private pending = 0;
  /** When its last write ended (performance.now()); 0 before any. */
  lastWriteEndedAt = 0;

  constructor(readonly store: ProjectStore) {
    this.projectId = store.projectId;
    this.root = store.root;
  }

  /**
   * Runs `work` after every earlier write to this project has finished (a restore never
   * interleaves with a change group), holding the store's writer lock across processes.
   */
  serial<T>(work: () => Promise<T>, wait: WriterWait = {}): Promise<T> {
    const held = () => this.store.writer.hold(work, { signal: wait.signal, onWait: wait.onWait });
    this.pending++;
    const next = this.queue.then(held, held).finally(() => {
      this.pending--;
      this.lastWriteEndedAt = performance.now();
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** While a write is queued or running: what to wait for before background work goes on; else undefined. */
  writing(): Promise<unknown> | undefined {
    return this.pending > 0 ? this.queue : undefined;
  }

  /** Stops the watcher after it wrote its open group. */
  async stopWatching(): Promise<void> {
    const watcher = this.watcher;
    if (!watcher) return;
    this.watcher = undefined;
    await watcher.stop();
  }

  /** Stops the watcher, lets queued writes finish, then closes the store and its database handle. */
  async close(): Promise<void> {
    await this.compaction?.stop();
    await this.searchBuilder?.stop();
    await this.stopWatching();
    await this.queue;
    this.store.close();
  }
}
