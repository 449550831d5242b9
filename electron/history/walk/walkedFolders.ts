import { lstatSync } from 'node:fs';
import type { FsPath } from '../paths/fsPath.js';

// The folders a walk listed, each with the ctime its lstat gave just before the listing: what a
// watch set up right after the walk starts from instead of listing every folder again. A folder
// whose entries changed since (one added, removed or renamed) has another ctime by then, and only
// it is listed again; one whose ctime lies within the racy window of the walk is listed again
// too, as a change within the timestamp's resolution would not show.

export interface WalkedFolders {
  /** Project path ('' for the root) to the folder's ctime in ms, as the walk's lstat gave it. */
  folders: Map<string, number>;
  /** A folder whose walked ctime is at or after this (ms since the epoch) is listed again. */
  racySince: number;
}

export function walkedFolders(startedAt: number, racyWindowMs: number): WalkedFolders {
  return { folders: new Map(), racySince: startedAt - racyWindowMs };
}

/** Whether the folder's entries may differ from the walk's listing (gone, changed, or racy). */
export function listingMayDiffer(walked: WalkedFolders, path: string, abs: FsPath): boolean {
  const ctimeMs = walked.folders.get(path);
  if (ctimeMs === undefined || ctimeMs >= walked.racySince) return true;
  const st = lstatSync(abs, { throwIfNoEntry: false });
  return st?.isDirectory() !== true || st.ctimeMs !== ctimeMs;
}
