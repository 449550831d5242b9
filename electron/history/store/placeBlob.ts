import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { TEMP_PREFIX } from './storeLayout.js';

// Moving a finished temp into its final place. Folders are made only when the rename finds one
// missing (ENOENT: make it, try once more), not before every write: on a fresh store the first
// blob of each of the 256 folders pays one mkdir, every other blob pays nothing.

export function newTempPath(blobsDir: string): string {
  return join(blobsDir, `${TEMP_PREFIX}${randomUUID()}`);
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
  try {
    mkdirSync(dir);
  } catch (error) {
    // Another worker may have made it between our rename and this mkdir: that is success.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** Best-effort removal of a temp that will not be placed; its absence is fine. */
export function dropTemp(temp: string): void {
  rmSync(temp, { force: true });
}
