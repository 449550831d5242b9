import { openSync, renameSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { makePrivateChild } from '../privateModes.js';
import { TEMP_PREFIX } from './storeLayout.js';

// Moving a finished temp into its final place. Folders are made only when a write finds one
// missing (ENOENT: make it, try once more), not before every write: on a fresh store the first
// blob of each of the 256 folders pays one mkdir, every other blob pays nothing.
//
// A blob whose hash is known before it is written (small files, bytes in memory) gets its temp in
// its own final folder: creates spread over 256 folders instead of all locking blobs/, and the
// rename stays within one folder, so it takes neither the second folder's lock nor the file
// system's cross-folder rename lock. Copy workers on several threads otherwise queue on both.

// One random token per thread, then a counter: as unique as a UUID per file (another thread or
// process has another token, and the exclusive create would refuse a clash), without generating
// and formatting a UUID for every file.
const threadToken = randomUUID();
let tempCount = 0;

function tempName(): string {
  return `${TEMP_PREFIX}${threadToken}-${(tempCount++).toString(36)}`;
}

export function newTempPath(blobsDir: string): string {
  return join(blobsDir, tempName());
}

/** A temp beside the blob's final path, opened for writing (exclusive, 0600); its folder is made if missing. */
export function openTempBeside(finalPath: string, stats?: PlaceStats): { temp: string; fd: number } {
  const temp = join(dirname(finalPath), tempName());
  try {
    return { temp, fd: openSync(temp, 'wx', 0o600) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    makeFolder(dirname(finalPath));
    if (stats) stats.mkdirs++;
    return { temp, fd: openSync(temp, 'wx', 0o600) };
  }
}

export interface PlaceStats {
  mkdirs: number;
}

export function placeBlob(temp: string, finalPath: string, stats?: PlaceStats): void {
  try {
    renameSync(temp, finalPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    makeFolder(dirname(finalPath));
    if (stats) stats.mkdirs++;
    renameSync(temp, finalPath);
  }
}

function makeFolder(dir: string): void {
  // Another worker may have made it between our rename and this mkdir: that is success.
  makePrivateChild(dir);
}

/** Best-effort removal of a temp that will not be placed; its absence is fine. */
export function dropTemp(temp: string): void {
  rmSync(temp, { force: true });
}
