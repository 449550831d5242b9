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
  /** Project path of every file the walk kept to its ctime in ns (a decimal string), as its lstat gave it. */
  files: Map<string, string>;
  /** A folder or file whose walked ctime is at or after this (ms since the epoch) counts as changed. */
  racySince: number;
}

export function walkedFolders(startedAt: number, racyWindowMs: number): WalkedFolders {
  return { folders: new Map(), files: new Map(), racySince: startedAt - racyWindowMs };
}

/** Whether the folder's entries may differ from the walk's listing (gone, changed, or racy). */
export function listingMayDiffer(walked: WalkedFolders, path: string, abs: FsPath): boolean {
  const ctimeMs = walked.folders.get(path);
  if (ctimeMs === undefined || ctimeMs >= walked.racySince) return true;
  const st = lstatSync(abs, { throwIfNoEntry: false });
  return st?.isDirectory() !== true || st.ctimeMs !== ctimeMs;
}

const NS_PER_MS = 1_000_000n;

/** Whether the file may differ from what the walk saw (gone, written since, or racy). */
export function fileMayDiffer(walked: WalkedFolders, path: string, abs: FsPath): boolean {
  const ctimeNs = walked.files.get(path);
  if (ctimeNs === undefined || BigInt(ctimeNs) / NS_PER_MS >= BigInt(Math.floor(walked.racySince))) return true;
  count('watch.lstat');
  const st = lstatSync(abs, { bigint: true, throwIfNoEntry: false });
  return st === undefined || st.isDirectory() || st.ctimeNs.toString() !== ctimeNs;
}
