import { chmodSync, constants, copyFileSync, existsSync, mkdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { HindsightError } from '../../../shared/errors.js';
import type { EntryType } from '../../../shared/history.js';
import { blobPath } from '../store/storeLayout.js';
import { fsError } from '../fsErrors.js';
import type { RestoreTemps } from './restoreTemps.js';
import { blobMissing } from '../store/readBlob.js';

// Puts one version's exact bytes and mode at a path: written to a temp beside the target, its mode
// set exactly, then renamed over the target, so the file is at every moment either the old one or
// the new one, never torn. A link is restored as a link.

export interface WritableVersion {
  hash: string;
  mode: number;
  type: EntryType | null | undefined;
  target?: string | null;
}

export function writeVersion(blobsDir: string, version: WritableVersion, absTarget: string, displayPath: string, temps: RestoreTemps): void {
  const dir = dirname(absTarget);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw fsError('recreate the folder for', displayPath, error, 'RESTORE_FAILED');
  }
  const temp = temps.tempFor(absTarget);
  try {
    if (version.type === 'symlink') {
      symlinkSync(version.target ?? '', temp);
    } else {
      copyBlob(blobPath(blobsDir, version.hash), temp, version.hash);
      chmodSync(temp, version.mode & 0o7777);
    }
    renameSync(temp, absTarget);
  } catch (error) {
    rmSync(temp, { force: true });
    if ((error as NodeJS.ErrnoException).code === 'EISDIR') {
      throw new HindsightError('RESTORE_FAILED', `Cannot restore ${displayPath}: a folder is in its place.`, { path: displayPath });
    }
    throw fsError('restore', displayPath, error, 'RESTORE_FAILED');
  }
}

function copyBlob(source: string, temp: string, hash: string): void {
  try {
    // FICLONE (not FORCE): a clone where the file system can, a plain copy where it cannot.
    copyFileSync(source, temp, constants.COPYFILE_FICLONE | constants.COPYFILE_EXCL);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !existsSync(source)) {
      throw blobMissing(hash);
    }
    throw error;
  }
}
