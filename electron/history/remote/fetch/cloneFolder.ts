import { lstatSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { HindsightError } from '../../../../shared/errors.js';
import { fsError } from '../../fsErrors.js';

// The folder a clone writes into: made when missing, or an existing empty folder; anything else
// is refused before a byte is fetched, so a clone never mixes with or overwrites files. A clone
// that fails leaves it as it found it (removed when it made it, emptied when it was empty).

/** Returns whether the folder was made here. */
export function prepareCloneFolder(folder: string): boolean {
  let isDir: boolean;
  try {
    isDir = lstatSync(folder).isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw fsError('look at', folder, error);
    try {
      mkdirSync(folder, { recursive: true });
    } catch (made) {
      throw fsError('make the folder', folder, made);
    }
    return true;
  }
  if (!isDir) throw new HindsightError('NOT_A_FOLDER', `${folder} is a file, not a folder.`, { path: folder });
  const entries = readdirSync(folder);
  if (entries.length > 0) {
    throw new HindsightError('FOLDER_NOT_EMPTY', `${folder} is not empty (${entries.length} entries): clone into a new or empty folder.`, {
      path: folder,
      entries: entries.length,
    });
  }
  return false;
}

export function emptyCloneFolder(folder: string, made: boolean): void {
  try {
    if (made) rmSync(folder, { recursive: true, force: true });
    else for (const entry of readdirSync(folder)) rmSync(join(folder, entry), { recursive: true, force: true });
  } catch {
    // What is left is reported by the next clone into it (not empty), never silently overwritten.
  }
}
