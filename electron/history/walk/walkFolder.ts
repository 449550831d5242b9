import { join } from 'node:path';
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, type BigIntStats, type Stats } from 'node:fs';
import { lossyPath } from '../../../shared/fileNameBytes.js';
import { appendAll } from '../../../shared/largeArrays.js';
import type { EntryType, UnreadablePath } from '../../../shared/history.js';
import { comparePaths } from '../../../shared/projectPath.js';
import { msOfNs, stampOf, type StatStamp } from '../statStamp.js';
import { count } from '../trace.js';
import { fsError } from '../fsErrors.js';
import { fsArg, fsPath, linkTarget, nameOfBytes, type FsPath } from '../paths/fsPath.js';
import type { TrackedPaths } from '../git/trackedPaths.js';
import { nameRulesOf } from '../paths/nameRules.js';
import { isIgnored, makeLayer, type IgnoreLayer } from './ignoreRules.js';
import { unreadableReason } from './unreadable.js';
import { listFolder, type ListedEntry } from './listFolder.js';
import type { WalkedFolders } from './walkedFolders.js';

// Lists every regular file and symlink of a project with lstat, never following a link, so
// nothing outside the folder is read through one. .git is always skipped; .gitignore files are
// honoured at every level, but never against a file git tracks (git keeps tracking it, and so
// does the history): an ignored folder holding one is entered for its tracked files alone. Synchronous calls in short slices: each costs microseconds, and the
// walk yields the event loop every few milliseconds so other work never waits long.

export interface WalkEntry extends StatStamp {
  path: string;
  /** Where it is on disk: a string, or the exact bytes when a name in it is not UTF-8. */
  abs: FsPath;
  type: EntryType;
  target?: string;
}

export interface WalkOptions {
  /** Extra exclude patterns (gitignore syntax) from the settings. */
  exclude?: readonly string[];
  signal?: AbortSignal;
  /** Told each folder's entries as soon as they are found (unsorted), so work can start before the walk ends. */
  onEntries?: (entries: WalkEntry[]) => void;
  /** Files larger than this (the maxFileSize setting) are left out; null or undefined: no limit. */
  maxFileSize?: number | null;
  /** A folder never entered, whatever the ignore rules say (the data folder inside the project). */
  skip?: string;
  /** Filled with the permission bits of every folder entered (the root excepted), by project path. */
  folderModes?: Map<string, number>;
  /** Filled with every folder entered (the root as '') and every file kept, for a watch to start from (walkedFolders.ts). */
  walked?: WalkedFolders;
  /**
   * Told each folder entered (the root as '') just before it is listed: a watch placed there hears
   * every change its listing and its files' lstats come too early for, so no second pass is needed.
   */
  onFolder?: (path: string) => void;
  /**
   * Filled with the folders that could not be listed and the files that could not be looked at
   * (the walk goes on without them). Without it such a path stops the walk with a clear error.
   */
  unreadable?: UnreadablePath[];
  /** The files git tracks here: recorded whatever a .gitignore says (the user's exclude patterns still apply). */
  tracked?: TrackedPaths;
  /** Filled with what ignore rules left out: files, and folders not entered as one path ending in '/'. */
  ignored?: string[];
  /**
   * Asked of every regular file with its number lstat: true when the stat cache holds the file as
   * it is, and then it is neither returned nor noted in `walked` (the cache answers for it there).
   * Any other file is looked at again with a bigint lstat, for the exact stamps its record needs
   * (a rescan: statTable.ts).
   */
  unchanged?: (path: string, st: Stats) => boolean;
  /** Entries are only told to `onEntries`, never kept: the walk answers none (a first copy's, walkJob.ts). */
  streamOnly?: boolean;
}

/** Whether an entry is a file over the size limit of the settings (links are never too large). */
export function overSizeLimit(entry: Pick<WalkEntry, 'type' | 'size'>, maxFileSize: number | null | undefined): boolean {
  return maxFileSize !== null && maxFileSize !== undefined && entry.type === 'file' && entry.size > maxFileSize;
}

const SLICE_MS = 4;
const GITIGNORE = Buffer.from('.gitignore');

export async function walkFolder(root: string, options: WalkOptions = {}): Promise<WalkEntry[]> {
  count('walk.tree');
  const entries: WalkEntry[] = [];
  const foldsCase = nameRulesOf(root).foldsCase;
  const base: IgnoreLayer[] = options.exclude?.length ? [makeLayer('', options.exclude.join('\n'), foldsCase)] : [];
  const stack: { rel: string; layers: IgnoreLayer[]; inIgnored: boolean }[] = [{ rel: '', layers: base, inIgnored: false }];
  const tracked = options.tracked;
  // fsPath's join, once: a listed name holds no '/', '.' or '..' segment, so the rest is a concatenation.
  const rootPrefix = join(root, '/');
  if (options.walked) noteFolder(options, '', fsPath(root, ''));
  let sliceStart = performance.now();
  while (stack.length > 0) {
    const { rel, layers: inherited, inIgnored } = stack.pop()!;
    options.onFolder?.(rel);
    const dirents = readFolder(root, rel, options.unreadable);
    if (!dirents) continue;
    const layers = withGitignore(root, rel, dirents, inherited, foldsCase);
    const found: WalkEntry[] = [];
    for (const dirent of dirents) {
      const name = typeof dirent.name === 'string' ? dirent.name : nameOfBytes(dirent.name);
      if (name === '.git') continue;
      const path = rel === '' ? name : `${rel}/${name}`;
      const abs = fsArg(rootPrefix + path);
      const kind = direntKind(dirent, abs);
      if (!kind) continue;
      const shown = lossyPath(path);
      const isDir = kind === 'dir';
      // Inside a folder entered only for its tracked files, everything else stays ignored.
      const ignoredHere = inIgnored || isIgnored(layers, shown, isDir);
      // Asked only of what the rules leave out: most paths are not, and the lookups add up.
      const keptByGit = ignoredHere && tracked !== undefined && (isDir ? tracked.folders : tracked.files).has(shown) && !isIgnored(base, shown, isDir);
      if (isDir) {
        if (path === options.skip) continue;
        if (ignoredHere && !keptByGit) {
          options.ignored?.push(`${shown}/`);
          continue;
        }
        stack.push({ rel: path, layers, inIgnored: ignoredHere });
        noteFolder(options, path, abs);
      } else if (ignoredHere && !keptByGit) {
        options.ignored?.push(shown);
      } else if (kind === 'file' && options.unchanged) {
        const entry = fileIfChanged(abs, path, options);
        if (entry) found.push(entry);
      } else {
        const entry = statEntry(abs, path, kind, options.unreadable);
        // One over the size limit too: written smaller before the watch is in place, it is recorded.
        if (entry) options.walked?.files.set(path, msOfNs(entry.ctimeNs));
        if (entry && overSizeLimit(entry, options.maxFileSize)) count('walk.overSizeLimit');
        else if (entry) found.push(entry);
      }
    }
    if (!options.streamOnly) appendAll(entries, found);
    if (options.onEntries && found.length > 0) options.onEntries(found);
    if (performance.now() - sliceStart > SLICE_MS) {
      options.signal?.throwIfAborted();
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
  options.ignored?.sort((a, b) => comparePaths(a, b));
  return entries.sort((a, b) => comparePaths(a.path, b.path));
}

/** One lstat of a folder entered, before its listing: its mode, and its ctime for a watch to start from. */
function noteFolder(options: WalkOptions, path: string, abs: FsPath): void {
  if (!options.folderModes && !options.walked) return;
  try {
    const st = lstatSync(abs);
    if (!st.isDirectory()) return;
    if (path !== '') options.folderModes?.set(path, st.mode & 0o7777);
    options.walked?.folders.set(path, st.ctimeMs);
  } catch {
    // gone meanwhile: the walk finds nothing in it either
  }
}

function readFolder(root: string, rel: string, unreadable: UnreadablePath[] | undefined): ListedEntry[] | undefined {
  const dir = fsPath(root, rel);
  try {
    return listFolder(dir);
  } catch (error) {
    // A folder removed while we walk is simply not there any more.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    // One folder that cannot be listed leaves out its own subtree, not the rest; the project
    // folder itself is another matter: nothing of it can be recorded.
    const reason = rel === '' ? undefined : unreadableReason(error, 'folder');
    if (reason === undefined || !unreadable) throw fsError('list the folder', dir, error);
    unreadable.push({ path: rel, reason });
    return undefined;
  }
}

function withGitignore(root: string, rel: string, dirents: ListedEntry[], inherited: IgnoreLayer[], foldsCase: boolean): IgnoreLayer[] {
  if (!dirents.some((d) => isGitignore(d.name) && (d.isFile() || d.isSymbolicLink()))) return inherited;
  const text = readRulesFile(fsPath(root, rel === '' ? '.gitignore' : `${rel}/.gitignore`));
  return text === undefined ? inherited : [...inherited, makeLayer(lossyPath(rel), text, foldsCase)];
}

/**
 * A .gitignore's text, or undefined when it cannot be read or is no regular file. Opened without
 * blocking: a .gitignore that is (or links to) a FIFO would otherwise wait for a writer forever.
 */
function readRulesFile(path: FsPath): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch {
    return undefined;
  }
  try {
    return fstatSync(fd).isFile() ? readFileSync(fd, 'utf8') : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function isGitignore(name: string | Buffer): boolean {
  return typeof name === 'string' ? name === '.gitignore' : name.equals(GITIGNORE);
}

function direntKind(dirent: ListedEntry, abs: FsPath): 'dir' | EntryType | undefined {
  if (dirent.isDirectory()) return 'dir';
  if (dirent.isFile()) return 'file';
  if (dirent.isSymbolicLink()) return 'symlink';
  if (!dirent.isBlockDevice() && !dirent.isCharacterDevice() && !dirent.isFIFO() && !dirent.isSocket()) {
    // Some file systems do not report a type in readdir: ask lstat.
    try {
      const st = lstatSync(abs);
      if (st.isDirectory()) return 'dir';
      if (st.isFile()) return 'file';
      if (st.isSymbolicLink()) return 'symlink';
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** A walked entry from its lstat: the stamp the stat cache compares on the next scan. */
export function entryFromStat(path: string, abs: FsPath, type: EntryType, st: BigIntStats): WalkEntry {
  return { path, abs, type, ...stampOf(st) };
}

/**
 * A regular file's entry unless the stat cache holds it as it is: a number lstat first (no bigint,
 * no string), the exact bigint one only for a file that may have changed.
 */
function fileIfChanged(abs: FsPath, path: string, options: WalkOptions): WalkEntry | undefined {
  let st: Stats;
  try {
    st = lstatSync(abs);
    count('walk.lstat');
  } catch (error) {
    return notLookedAt(error, abs, path, options.unreadable);
  }
  if (overSizeLimit({ type: 'file', size: st.size }, options.maxFileSize)) {
    options.walked?.files.set(path, st.ctimeMs);
    count('walk.overSizeLimit');
    return undefined;
  }
  // An unchanged file's ctime is the stat cache's: the walked files ask it there (walkedFolders.ts).
  if (options.unchanged!(path, st)) return undefined;
  options.walked?.files.set(path, st.ctimeMs);
  return statEntry(abs, path, 'file', options.unreadable, 'walk.lstatAgain');
}

/** An entry from a bigint lstat, counted as a file's one look (`walk.lstat`) or as a second, exact one. */
function statEntry(
  abs: FsPath,
  path: string,
  type: EntryType,
  unreadable: UnreadablePath[] | undefined,
  look: 'walk.lstat' | 'walk.lstatAgain' = 'walk.lstat',
): WalkEntry | undefined {
  try {
    const st = lstatSync(abs, { bigint: true });
    count(look);
    const entry = entryFromStat(path, abs, type, st);
    if (type === 'symlink') entry.target = linkTarget(abs);
    return entry;
  } catch (error) {
    return notLookedAt(error, abs, path, unreadable);
  }
}

/** A file gone since its folder was listed is simply not there; one that cannot be looked at is noted (or stops the walk). */
function notLookedAt(error: unknown, abs: FsPath, path: string, unreadable: UnreadablePath[] | undefined): undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
  const reason = unreadableReason(error, 'file');
  if (reason === undefined || !unreadable) throw fsError('look at', abs, error);
  unreadable.push({ path, reason });
  return undefined;
}
