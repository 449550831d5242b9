import { lstatSync } from 'node:fs';
import type { FsPath } from '../paths/fsPath.js';
import { count } from '../trace.js';

// The folders a walk listed, each with the ctime its lstat gave just before the listing, and the
// files it found with theirs: what a watch set up right after the walk starts from instead of
// listing every folder again, and instead of a second walk. A folder whose entries changed since
// (one added, removed or renamed) has another ctime by then, and only it is listed again; a file
// written since has another ctime, and only it is looked at again. One whose ctime lies within
// the racy window of the walk counts as changed, as a change within the timestamp's resolution
// would not show.

export interface WalkedFolders {
  /** Project path ('' for the root) to the folder's ctime in ms, as the walk's lstat gave it. */
  folders: Map<string, number>;
  /** Project path of every file the walk kept to its ctime in ms, as a number lstat gives it. */
  files: WalkedFiles;
  /** A folder or file whose walked ctime is at or after this (ms since the epoch) counts as changed. */
  racySince: number;
}

/** Files a rescan's walk found as the stat cache holds them: their ctime is the cached one (statTable.ts). */
export interface UnchangedFiles {
  unchangedCtimeMs(path: string): number | undefined;
  unchangedPaths(): Iterable<string>;
}

/**
 * The files a walk kept with their ctimes: those it noted itself, and those a rescan found
 * unchanged, answered by the stat cache it compared them with rather than noted one by one (a
 * map of 50,000 paths built during every reopen, for a watch that may never start).
 */
export class WalkedFiles {
  private readonly noted = new Map<string, number>();

  constructor(private readonly unchanged?: UnchangedFiles) {}

  set(path: string, ctimeMs: number): void {
    this.noted.set(path, ctimeMs);
  }

  get(path: string): number | undefined {
    return this.noted.get(path) ?? this.unchanged?.unchangedCtimeMs(path);
  }

  has(path: string): boolean {
    return this.get(path) !== undefined;
  }

  *keys(): Generator<string> {
    yield* this.noted.keys();
    if (this.unchanged) yield* this.unchanged.unchangedPaths();
  }
}

export function walkedFolders(startedAt: number, racyWindowMs: number, unchanged?: UnchangedFiles): WalkedFolders {
  return { folders: new Map(), files: new WalkedFiles(unchanged), racySince: startedAt - racyWindowMs };
}

/** Whether the folder's entries may differ from the walk's listing (gone, changed, or racy). */
export function listingMayDiffer(walked: WalkedFolders, path: string, abs: FsPath): boolean {
  const ctimeMs = walked.folders.get(path);
  if (ctimeMs === undefined || ctimeMs >= walked.racySince) return true;
  const st = lstatSync(abs, { throwIfNoEntry: false });
  return st?.isDirectory() !== true || st.ctimeMs !== ctimeMs;
}

/**
 * Whether the file may differ from what the walk saw (gone, written since, or racy). Its ctime is
 * compared as the double a number lstat gives (a step of 244 ns): a write since the walk that
 * close to the walked ctime falls within the racy window, which counts as changed.
 */
export function fileMayDiffer(walked: WalkedFolders, path: string, abs: FsPath): boolean {
  const ctimeMs = walked.files.get(path);
  if (ctimeMs === undefined || Math.floor(ctimeMs) >= Math.floor(walked.racySince)) return true;
  count('watch.lstat');
  const st = lstatSync(abs, { throwIfNoEntry: false });
  return st === undefined || st.isDirectory() || st.ctimeMs !== ctimeMs;
}
