import { chmodSync, closeSync, constants, fchmodSync, mkdirSync, openSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { HindsightError } from '../../../shared/errors.js';
import { fsError } from '../fsErrors.js';
import { fsArg } from '../paths/fsPath.js';
import type { BlobStore } from '../store/blobStore.js';

// The one home of a restore's temp-and-rename: a version's bytes (or link) go to a temp beside
// the target with the exact mode, and the temp is renamed over the target, so the file is at every
// moment either the old one or the new one, never torn. Each step's failure removes the temp and
// says what could not be done to which project path (RESTORE_FAILED, or the blob reader's error).
// The temp's name comes from the restore's RestoreTemps (restoreTemps.ts), which journals it.
// Paths here are in the stored form (paths/fsPath.ts); fsArg gives each fs call the exact bytes.

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** A stored file version: its blob, the size the index recorded, and its exact mode. */
export interface StoredFile {
  hash: string;
  size: number;
  mode: number;
  /** Named in the error when its blob turns out damaged. */
  versionId?: number;
}

/** Makes the folder a target goes in, when it is missing. */
export function makeParent(absTarget: string, path: string): void {
  try {
    mkdirSync(fsArg(dirname(absTarget)), { recursive: true });
  } catch (error) {
    throw fsError('recreate the folder for', path, error, 'RESTORE_FAILED');
  }
}

/** The temp, closed, with the version's bytes (cloned where the file system can) and exact mode. */
export function cloneTemp(blobs: BlobStore, file: StoredFile, temp: string, path: string): void {
  try {
    blobs.cloneTo(file.hash, fsArg(temp), file.size, { path, versionId: file.versionId });
    // The blob is private (0600) and the copy took the umask: the recorded bits, exactly.
    chmodSync(fsArg(temp), file.mode & 0o7777);
  } catch (error) {
    dropTemp(temp);
    throw restoreError(path, error);
  }
}

/**
 * The temp with the version's bytes and mode, still open: the caller closes it (a bulk restore
 * hands the close to its closer) and then moves it into place.
 */
export function writeTemp(blobs: BlobStore, file: StoredFile, temp: string, path: string, buffer: Buffer): number {
  let fd: number;
  try {
    fd = openSync(fsArg(temp), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW, 0o600);
  } catch (error) {
    throw fsError('write a temp for', path, error, 'RESTORE_FAILED');
  }
  try {
    blobs.copyInto(file.hash, fd, buffer, file.size, { path, versionId: file.versionId });
    // The open applied the umask; the restored file must carry the recorded bits exactly.
    fchmodSync(fd, file.mode & 0o7777);
  } catch (error) {
    closeSync(fd);
    dropTemp(temp);
    throw restoreError(path, error);
  }
  return fd;
}

/** The temp as a link pointing where the version's link pointed (never followed). */
export function linkTemp(target: string, temp: string, path: string): void {
  try {
    symlinkSync(fsArg(target), fsArg(temp));
  } catch (error) {
    dropTemp(temp);
    throw restoreError(path, error);
  }
}

/** Renames a finished temp over its target; on failure the temp is removed and the target left as it was. */
export function moveIntoPlace(temp: string, absTarget: string, path: string): void {
  try {
    renameSync(fsArg(temp), fsArg(absTarget));
  } catch (error) {
    dropTemp(temp);
    if ((error as NodeJS.ErrnoException).code === 'EISDIR') {
      throw new HindsightError('RESTORE_FAILED', `Cannot restore ${path}: a folder is in its place.`, { path });
    }
    throw restoreError(path, error);
  }
}

/** Best-effort removal of a temp that will not be placed; its absence is fine. */
export function dropTemp(temp: string): void {
  rmSync(fsArg(temp), { force: true });
}

function restoreError(path: string, error: unknown): HindsightError {
  return fsError('restore', path, error, 'RESTORE_FAILED');
}
