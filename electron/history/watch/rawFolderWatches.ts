import { readdirSync, watch, type FSWatcher } from 'node:fs';
import { hasRawBytes } from '../../../shared/fileNameBytes.js';
import { nameOfBytes } from '../paths/fsPath.js';

// chokidar watches folders by Node string paths, which lose bytes that are not UTF-8, so it
// cannot watch inside a folder whose name has such bytes. These watches cover those folders (and
// every folder below them) by their bytes; any event in them only asks for a reconciling rescan,
// which finds what changed. Such folders are rare, so listing one again on an event costs little.

const SLASH = Buffer.from('/');
const GIT = Buffer.from('.git');
const SLICE_MS = 4;

export class RawFolderWatches {
  private readonly watchers = new Map<string, FSWatcher>();
  private closed = false;

  constructor(
    /** Told of any event inside a watched folder (and of a watch that failed). */
    private readonly onEvent: () => void,
    /** Whether a folder (its path in the lossy form the ignore rules match) is left out. */
    private readonly ignored: (dir: string) => boolean,
  ) {}

  /** Watches the folders directly in `dir` (a folder chokidar watches) whose names are not UTF-8. */
  discover(dir: string): void {
    if (this.closed) return;
    for (const entry of listFolders(Buffer.from(dir))) {
      if (!hasRawBytes(nameOfBytes(entry))) continue;
      const path = Buffer.concat([Buffer.from(dir), SLASH, entry]);
      if (!this.ignored(path.toString('utf8'))) this.watchTree(path);
    }
  }

  /** discover for many folders, yielding the event loop every few milliseconds. */
  async discoverAll(dirs: readonly string[]): Promise<void> {
    let sliceStart = performance.now();
    for (const dir of dirs) {
      if (this.closed) return;
      this.discover(dir);
      if (performance.now() - sliceStart > SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
  }

  get size(): number {
    return this.watchers.size;
  }

  close(): void {
    this.closed = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  /** Watches `dir` and every folder below it not watched yet. */
  private watchTree(dir: Buffer): void {
    const key = dir.toString('latin1');
    if (!this.watchers.has(key)) {
      let watcher: FSWatcher;
      try {
        watcher = watch(dir, { encoding: 'buffer', persistent: false }, () => {
          this.watchTree(dir); // a folder made inside is watched too
          this.onEvent();
        });
      } catch {
        return; // gone meanwhile: the rescan says so
      }
      watcher.on('error', () => {
        watcher.close();
        this.watchers.delete(key);
        this.onEvent();
      });
      this.watchers.set(key, watcher);
    }
    for (const entry of listFolders(dir)) if (!entry.equals(GIT)) this.watchTree(Buffer.concat([dir, SLASH, entry]));
  }
}

function listFolders(dir: Buffer): Buffer[] {
  try {
    return readdirSync(dir, { withFileTypes: true, encoding: 'buffer' })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return [];
  }
}
