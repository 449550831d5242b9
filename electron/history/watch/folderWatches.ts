import { lstatSync, readdirSync, watch, type FSWatcher } from 'node:fs';
import { hasRawBytes } from '../../../shared/fileNameBytes.js';
import { fsArg, nameOfBytes } from '../paths/fsPath.js';
import { count } from '../trace.js';
import { fileMayDiffer, listingMayDiffer, type WalkedFolders } from '../walk/walkedFolders.js';
import { isWatchLimit } from './watchLimit.js';

// One watch per folder of a project (inotify watches a folder's entries, so a file needs no watch
// of its own), every path by its bytes, so a name that is not UTF-8 is watched like any other.
// A file watcher that watches every file and keeps its stats (chokidar) costs a watch, an object
// graph and a stat per file: about 2.5 KiB of heap per file, 240 MiB for ten projects of 95,000
// files, and the OS's watch limit is met ten times sooner. Here a start lists folders only, no
// file is ever stat'ed but the one an event names, and the memory is a watch per folder.

/** What the watches report; paths are relative to the root, '/'-separated, in Node's string form. */
export interface FolderEvents {
  /** Something happened to the file at `path` (written, created, removed, renamed). */
  file(path: string): void;
  /** What events cannot say exactly (a folder created, removed or moved, a name that is not UTF-8): a rescan finds it. */
  doubt(reason: string): void;
  /** The OS refused a watch for its limit (ENOSPC, EMFILE): a partial watch would miss changes. */
  limit(error: unknown): void;
  /** Whether the open group is already a whole rescan, so which file an event names no longer matters. */
  rescanDue?(): boolean;
  /** An event heard while a rescan is due: the storm goes on, so the group stays open. */
  heard?(): void;
}

export const NOT_UTF8 = 'a name that is not UTF-8';

const SLASH = Buffer.from('/');
const GIT = Buffer.from('.git');
const GITIGNORE = Buffer.from('.gitignore');
/** The longest stretch the start's listing holds the event loop before it yields. */
const SLICE_MS = 4;

export class FolderWatches {
  /** The watched folders, keyed by their path's bytes relative to the root (latin1: one char per byte). */
  private readonly watchers = new Map<string, FSWatcher>();
  private closed = false;
  /** A name was created or moved while a rescan was due and not looked at: it may be a folder to watch. */
  private relistDue = false;
  private readonly rootBytes: Buffer;

  constructor(
    root: string,
    /** Whether a path (relative, Node's string form) is left out by the ignore rules. */
    private readonly ignored: (path: string, isDir: boolean) => boolean,
    private readonly events: FolderEvents,
  ) {
    this.rootBytes = Buffer.from(root);
  }

  /**
   * Watches the root and every folder below it that is not ignored; yields the event loop as it
   * goes. Given the folders a walk just listed, watches those without listing them again, then
   * lists only the ones whose entries may have changed since (walk/walkedFolders.ts).
   */
  async watchAll(walked?: WalkedFolders): Promise<void> {
    if (walked) await this.watchWalked(walked);
    else await this.watchTree(Buffer.alloc(0), true);
  }

  /**
   * Watches one folder a walk is about to list (not the folders below it: the walk tells each).
   * Placed before the listing and the lstats of its files, it hears whatever they come too early
   * for, so a catch-up needs neither a second listing nor a second lstat of any file.
   */
  watchListed(path: string): void {
    if (this.closed) return;
    const rel = relBytes(path);
    if (rel.length > 0 && this.ignored(rel.toString('utf8'), true)) return;
    this.watchOne(rel);
  }

  /** Watches folders that the ignore rules no longer leave out, and drops those they now do. */
  async refresh(): Promise<void> {
    for (const key of [...this.watchers.keys()]) {
      const rel = Buffer.from(key, 'latin1');
      if (rel.length > 0 && this.ignored(rel.toString('utf8'), true)) this.unwatchTree(key);
    }
    await this.watchTree(Buffer.alloc(0), true);
  }

  /** Watches folders the ignore rules left out until now (git tracks a file in them), with the folders below them not left out. */
  async watchFolders(paths: readonly string[]): Promise<void> {
    for (const path of paths) {
      const rel = relBytes(path);
      if (this.closed || this.watchers.has(rel.toString('latin1')) || this.ignored(path, true)) continue;
      await this.watchTree(rel, true);
    }
  }

  /**
   * Watches the folders created while a rescan was due (their events were not looked at); called
   * before that rescan walks, so what its walk misses in them is an event of their new watch.
   */
  async relistIfDue(): Promise<void> {
    if (!this.relistDue) return;
    this.relistDue = false;
    count('watch.relists');
    await this.watchTree(Buffer.alloc(0), true);
  }

  get size(): number {
    return this.watchers.size;
  }

  close(): void {
    this.closed = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  /**
   * Each watch is in place before its folder's lstat and its files' lstats: a change after it is
   * an event, one before it a new ctime. So what changed between the walk and the watch is heard
   * here, and the walk needs no second pass.
   */
  private async watchWalked(walked: WalkedFolders): Promise<void> {
    const placed: [string, Buffer][] = [];
    await this.inSlices([...walked.folders.keys()], (path) => {
      const rel = relBytes(path);
      if (rel.length > 0 && this.ignored(rel.toString('utf8'), true)) return;
      if (this.watchOne(rel)) placed.push([path, rel]);
    });
    await this.inSlices(placed, async ([path, rel]) => {
      if (listingMayDiffer(walked, path, this.abs(rel))) await this.listAgain(rel, walked);
    });
    await this.inSlices([...walked.files.keys()], (path) => {
      const rel = relBytes(path);
      if (this.watchers.has(folderKey(rel)) && fileMayDiffer(walked, path, this.abs(rel))) this.file(rel);
    });
  }

  /**
   * Lists one watched folder whose entries changed since the walk: its files are told (new ones
   * the walk did not see), and the folders in it not watched yet are watched with their trees,
   * whose files no walk saw: a doubt.
   */
  private async listAgain(rel: Buffer, walked: WalkedFolders): Promise<void> {
    const { files, folders } = listEntries(this.abs(rel));
    for (const name of files) {
      const child = join(rel, name);
      if (!walked.files.has(child.toString('utf8'))) this.file(child);
    }
    for (const name of folders) {
      const child = join(rel, name);
      if (name.equals(GIT) || this.watchers.has(child.toString('latin1')) || this.ignored(child.toString('utf8'), true)) continue;
      await this.watchTree(child, true);
      this.events.doubt('folder created');
    }
  }

  private async inSlices<T>(items: readonly T[], each: (item: T) => void | Promise<void>): Promise<void> {
    let sliceStart = performance.now();
    for (const item of items) {
      if (this.closed) return;
      await each(item);
      if (performance.now() - sliceStart > SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
  }

  /** Watches `rel` and every folder below it not watched yet, breadth first. */
  private async watchTree(rel: Buffer, yielding: boolean): Promise<void> {
    const queue = [rel];
    let sliceStart = performance.now();
    for (let i = 0; i < queue.length && !this.closed; i++) {
      const next = queue[i]!;
      if (!this.watchOne(next)) continue;
      for (const name of listFolders(this.abs(next))) {
        const child = join(next, name);
        if (!name.equals(GIT) && !this.ignored(child.toString('utf8'), true)) queue.push(child);
      }
      if (yielding && performance.now() - sliceStart > SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
  }

  /** Starts one folder's watch; false when the folder is gone or the OS refused it. */
  private watchOne(rel: Buffer): boolean {
    const key = rel.toString('latin1');
    if (this.watchers.has(key)) return true;
    let watcher: FSWatcher;
    try {
      watcher = watch(this.abs(rel), { encoding: 'buffer', persistent: true }, (type, name) => this.event(rel, type, name));
    } catch (error) {
      if (isWatchLimit(error)) this.events.limit(error);
      else this.events.doubt('a folder could not be watched'); // gone meanwhile: the rescan says so
      return false;
    }
    watcher.on('error', (error) => {
      if (isWatchLimit(error)) {
        this.events.limit(error);
        return;
      }
      this.unwatchTree(key);
      this.events.doubt('a watch failed');
    });
    this.watchers.set(key, watcher);
    return true;
  }

  private event(folder: Buffer, type: string, name: Buffer | string | null): void {
    if (this.closed) return;
    if (name === null) {
      this.events.doubt('an event without a name');
      return;
    }
    if (this.events.rescanDue?.() === true && this.passOver(folder, type, name)) return;
    const rel = join(folder, Buffer.isBuffer(name) ? name : Buffer.from(name));
    const key = rel.toString('latin1');
    // A write to a file is a 'change'; only a 'rename' (created, removed, moved) can be a folder.
    if (type === 'change' && !this.watchers.has(key)) {
      this.file(rel);
      return;
    }
    count('watch.eventStats');
    const stats = lstatSync(this.abs(rel), { throwIfNoEntry: false });
    const isDir = stats?.isDirectory() ?? false;
    if (this.watchers.has(key)) {
      if (type === 'change' && isDir) return; // the folder's own times or modes
      // Removed, replaced, or moved away and another put in its place: watch what is there now.
      this.unwatchTree(key);
      if (isDir) void this.watchTree(rel, false);
      this.events.doubt(isDir ? 'folder moved' : 'folder removed');
      if (!isDir && stats !== undefined) this.file(rel);
      return;
    }
    if (isDir) {
      if (this.ignored(rel.toString('utf8'), true)) return;
      // Its first files may come before its watch: the rescan finds them.
      void this.watchTree(rel, false);
      this.events.doubt('folder created');
      return;
    }
    this.file(rel);
  }

  /**
   * A checkout's storm once the group is a rescan: the rescan finds every file again, so an event
   * costs no stat and no path, only a sign that the storm goes on. Not passed over: an edited
   * .gitignore (the rules change) and anything naming a watched folder (removed or moved: its
   * watches go). A name created may be a new folder: the folders are listed again before the rescan.
   */
  private passOver(folder: Buffer, type: string, name: Buffer | string): boolean {
    const bytes = Buffer.isBuffer(name) ? name : Buffer.from(name);
    if (bytes.equals(GITIGNORE)) return false;
    if (type === 'rename') {
      if (this.watchers.has(join(folder, bytes).toString('latin1'))) return false;
      this.relistDue = true;
    }
    count('watch.eventsPassedOver');
    this.events.heard?.();
    return true;
  }

  private file(rel: Buffer): void {
    count('watch.fileEvents');
    const path = rel.toString('utf8');
    if (this.ignored(path, false)) return;
    if (hasRawBytes(nameOfBytes(rel))) this.events.doubt(NOT_UTF8);
    else this.events.file(path);
  }

  /** Stops the watch of a folder and of every watched folder below it. */
  private unwatchTree(key: string): void {
    const below = `${key}/`;
    for (const [other, watcher] of this.watchers) {
      if (other !== key && !other.startsWith(below)) continue;
      watcher.close();
      this.watchers.delete(other);
    }
  }

  private abs(rel: Buffer): Buffer {
    return rel.length === 0 ? this.rootBytes : Buffer.concat([this.rootBytes, SLASH, rel]);
  }
}

function join(folder: Buffer, name: Buffer): Buffer {
  return folder.length === 0 ? name : Buffer.concat([folder, SLASH, name]);
}

/** A project path in the stored form as the bytes of its names. */
function relBytes(path: string): Buffer {
  const abs = fsArg(path);
  return typeof abs === 'string' ? Buffer.from(abs) : abs;
}

function listFolders(dir: Buffer): Buffer[] {
  return listEntries(dir).folders;
}

/** The names of a folder's folders and of its other entries (files, links), from one listing. */
function listEntries(dir: Buffer): { files: Buffer[]; folders: Buffer[] } {
  count('watch.readdir');
  const listed = { files: [] as Buffer[], folders: [] as Buffer[] };
  try {
    for (const d of readdirSync(dir, { withFileTypes: true, encoding: 'buffer' })) (d.isDirectory() ? listed.folders : listed.files).push(d.name);
  } catch {
    // gone meanwhile, or unreadable: the rescan says which
  }
  return listed;
}

/** The watch key of the folder holding a file (its path's bytes up to the last '/'). */
function folderKey(rel: Buffer): string {
  const slash = rel.lastIndexOf(SLASH);
  return slash < 0 ? '' : rel.subarray(0, slash).toString('latin1');
}
