import { existsSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, relative, sep } from 'node:path';
import { count } from '../trace.js';

// What tells the recorder of every project to look again at config.json and the known folders:
// the OS's events, not a poll. One watch on the data folder hears config.json saved (renamed over,
// or written in place), and one watch on the parent of each known folder hears the folder
// removed, moved away, put back or replaced. A folder whose parent is gone too is heard from the
// nearest ancestor that exists (its child on the way is what comes back first: a drive mounted
// again, a tree restored), and the watches are placed again after each look. Events that name
// nothing of ours (other files of a busy home folder) cost a name comparison and no look.
//
// A project listed before its first copy is done (under way in another process) has its store's
// folder watched too: any event there asks for a look, a second after the first, so a first copy
// that writes for minutes costs a look a second, and a store nobody writes costs nothing.
//
// What events cannot tell (a grandparent renamed, a network file system) is found by the
// recorder's slow safety look; `missing` says a watch could not be placed, so that look comes sooner.

interface Placed {
  watcher: FSWatcher;
  /** The names in the watched folder that lead to a known folder (its basename when it is the parent); null: any name. */
  names: Set<string> | null;
}

/** How long after an event in a store's folder the look comes: the events of one write are many. */
export const STORE_LOOK_DELAY_MS = 1000;

export class ListWatch {
  private readonly placed = new Map<string, Placed>();
  private closed = false;
  private storeLook: NodeJS.Timeout | undefined;
  /** Whether some folder could not be watched (the OS's limit, no permission). */
  missing = false;

  constructor(
    private readonly dataDir: string,
    private readonly configName: string,
    /** Something of ours may have changed: look at config.json and the known folders. */
    private readonly changed: () => void,
  ) {}

  /**
   * Watches the data folder, the parents of `roots` (or their nearest ancestors) and the folders
   * of `stores` (projects whose first copy is not done), and no other folder.
   */
  follow(roots: readonly string[], stores: readonly string[] = []): void {
    if (this.closed) return;
    const wanted = new Map<string, Set<string> | null>([[this.dataDir, new Set([this.configName])]]);
    for (const store of stores) wanted.set(store, null);
    for (const root of roots) {
      const [folder, name] = nearestWatchable(root);
      if (folder === undefined) continue;
      const names = wanted.has(folder) ? wanted.get(folder)! : new Set<string>();
      names?.add(name);
      wanted.set(folder, names);
    }
    for (const [folder, placed] of [...this.placed]) {
      if (wanted.has(folder)) continue;
      placed.watcher.close();
      this.placed.delete(folder);
    }
    this.missing = false;
    for (const [folder, names] of wanted) {
      const placed = this.placed.get(folder);
      if (placed) placed.names = names;
      else this.place(folder, names);
    }
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.storeLook);
    for (const { watcher } of this.placed.values()) watcher.close();
    this.placed.clear();
  }

  /** How many folders are watched (the data folder included). */
  get size(): number {
    return this.placed.size;
  }

  private place(folder: string, names: Set<string> | null): void {
    let watcher: FSWatcher;
    try {
      watcher = watch(folder, { persistent: true }, (_type, name) => this.event(folder, name));
    } catch {
      this.missing = true;
      return;
    }
    // A watch that fails (its folder gone) is dropped: the look it asks for places it again.
    watcher.on('error', () => this.lost(folder));
    this.placed.set(folder, { watcher, names });
  }

  private event(folder: string, name: string | null): void {
    const placed = this.placed.get(folder);
    if (!placed || this.closed) return;
    // No name, or the folder's own: the watched folder itself was moved or removed.
    if (placed.names === null) {
      this.storeLook ??= setTimeout(() => {
        this.storeLook = undefined;
        this.changed();
      }, STORE_LOOK_DELAY_MS);
      return;
    }
    const self = name === null || name === basename(folder);
    if (!self && !placed.names.has(name)) return;
    if (self) this.lost(folder);
    count('recorder.listEvents');
    this.changed();
  }

  /** The watch of a folder moved or removed follows its inode: dropped, and placed again by path after the look. */
  private lost(folder: string): void {
    const placed = this.placed.get(folder);
    if (!placed) return;
    placed.watcher.close();
    this.placed.delete(folder);
    this.changed();
  }
}

/** The nearest existing ancestor of a folder (a stat per level) and the name below it on the way there. */
function nearestWatchable(root: string): [string | undefined, string] {
  for (let folder = dirname(root); ; folder = dirname(folder)) {
    if (existsSync(folder)) return [folder, relative(folder, root).split(sep)[0]!];
    if (dirname(folder) === folder) return [undefined, ''];
  }
}
