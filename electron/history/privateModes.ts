import { chmodSync, closeSync, fchmodSync, fstatSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

// A history holds everything a user ever wrote, secrets included: every folder Hindsight makes
// for it is 0700 and every file 0600, whatever the umask (mkdir and open apply the umask, which can
// widen a mode under umask 000 or narrow it under an odd one, so each is set exactly after).
// A blob's own permission bits live only in the version rows, never on disk.

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Whether a file created now with mode 0600 is 0600 exactly: true when the process's umask
 * (read from /proc/self/status, which changes nothing, unlike process.umask()) clears neither bit.
 * False when it cannot be told (no /proc): the caller sets the mode itself.
 */
export function createsPrivateFileExactly(): boolean {
  let status: string;
  try {
    status = readFileSync('/proc/self/status', 'latin1');
  } catch {
    return false;
  }
  const umask = /^Umask:\s*([0-7]+)$/m.exec(status)?.[1];
  return umask !== undefined && (parseInt(umask, 8) & PRIVATE_FILE_MODE) === 0;
}

/** Makes a folder and any missing parent, each one it makes 0700. */
export function makePrivateDir(dir: string): void {
  const first = mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (first === undefined) return;
  // mkdir returned the top folder it made: set it and every folder below it, down to `dir`.
  const made: string[] = [];
  for (let at = dir; at.length >= first.length; at = dirname(at)) {
    made.push(at);
    if (at === first) break;
  }
  for (const path of made) chmodSync(path, PRIVATE_DIR_MODE);
}

/** Makes one folder whose parent exists (0700); false when it was already there. */
export function makePrivateChild(dir: string): boolean {
  try {
    mkdirSync(dir, PRIVATE_DIR_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  chmodSync(dir, PRIVATE_DIR_MODE);
  return true;
}

/** Narrows a folder of ours made by an earlier Hindsight (which followed the umask) to 0700. */
export function tightenDir(dir: string): void {
  if ((statSync(dir).mode & 0o7777) !== PRIVATE_DIR_MODE) chmodSync(dir, PRIVATE_DIR_MODE);
}

/** Creates a file of ours empty if missing, and makes it 0600 (an existing one too). */
export function ensurePrivateFile(path: string): void {
  const fd = openSync(path, 'a', PRIVATE_FILE_MODE);
  try {
    if ((fstatSync(fd).mode & 0o7777) !== PRIVATE_FILE_MODE) fchmodSync(fd, PRIVATE_FILE_MODE);
  } finally {
    closeSync(fd);
  }
}

/** Writes a small file of ours whole, 0600: to a temp beside it, then renamed, so a reader sees the old or the new text. */
export function writePrivateFileAtomic(path: string, text: string): void {
  makePrivateDir(dirname(path));
  const temp = `${path}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w', PRIVATE_FILE_MODE);
  try {
    fchmodSync(fd, PRIVATE_FILE_MODE);
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
}
