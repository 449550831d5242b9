import type { ProjectStore } from './projectStore.js';
import type { ProjectWatcher } from '../watch/projectWatcher.js';

// Everything this process holds for one open project, in one record keyed by its projectId: the
// store (blob folder and SQLite handle), the live watcher, the queue its writes run through and
// the exclude patterns it was opened with. Closing it closes all of them.

export class OpenProject {
  readonly projectId: string;
  readonly root: string;
  /** Opened through engine.open (what the viewer calls open); a store opened only to be read is not. */
  opened = false;
  watcher: ProjectWatcher | undefined;
  /** The exclude patterns of its last open: later rescans use the same. */
  exclude: readonly string[] | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly store: ProjectStore) {
    this.projectId = store.projectId;
    this.root = store.root;
  }

  /** Runs `work` after every earlier write to this project has finished (a restore never interleaves with a change group). */
  serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
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
    await this.stopWatching();
    await this.serial(async () => undefined);
    this.store.close();
  }
}
