import { lstatSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fsPath, linkTarget, type FsPath } from '../paths/fsPath.js';
import { entryFromStat, type WalkEntry } from './walkFolder.js';
import { count } from '../trace.js';
import { foldsAnything } from '../../../shared/nameFold.js';
import { spelledAsOnDisk } from '../paths/diskSpelling.js';
import { knownRules, nameRulesOf } from '../paths/nameRules.js';

// What is at one project path right now, looked at the way the walk looks: lstat, never through a
// link. A path whose parent folder is a link is not part of the project (the walk would not go
// there), so it reads as absent. Every lstat made here is counted in `rescan.lstat`, the parent
// checks included, and the parents are checked only once the path itself is found: a missing path
// (the common case when checking recorded paths the walk did not see) costs exactly one lstat.

export function statPath(root: string, path: string): WalkEntry | undefined {
  const abs = fsPath(root, path);
  const st = lstatOrUndefined(abs);
  if (!st) return undefined;
  const type = st.isFile() ? 'file' : st.isSymbolicLink() ? 'symlink' : undefined;
  if (!type || parentIsLink(root, path) || !spelledAsRecorded(root, path, st.dev)) return undefined;
  const entry = entryFromStat(path, abs, type, st);
  if (type === 'symlink') {
    try {
      entry.target = linkTarget(abs);
    } catch (error) {
      if (isAbsence(error)) return undefined;
      throw error;
    }
  }
  return entry;
}

/**
 * Where names fold, lstat finds `README.md` when the disk holds `readme.md`: the recorded path is
 * then gone (renamed), and the walk finds the file under its new spelling.
 */
function spelledAsRecorded(root: string, path: string, dev: bigint): boolean {
  // The file's own device: a folder mounted inside the project has rules of its own.
  const rules = knownRules(dev) ?? nameRulesOf(dirname(join(root, path)));
  return !foldsAnything(rules) || spelledAsOnDisk(root, path);
}

/** Whether a project folder exists as a real folder (a link to a folder is not one the walk enters). */
export function folderExists(root: string, dir: string): boolean {
  const st = lstatOrUndefined(fsPath(root, dir));
  return st !== undefined && st.isDirectory();
}

function lstatOrUndefined(abs: FsPath) {
  count('rescan.lstat');
  try {
    return lstatSync(abs, { bigint: true });
  } catch (error) {
    if (isAbsence(error)) return undefined;
    throw error;
  }
}

function parentIsLink(root: string, path: string): boolean {
  const parts = path.split('/');
  let current = '';
  for (const part of parts.slice(0, -1)) {
    current = current === '' ? part : `${current}/${part}`;
    const st = lstatOrUndefined(fsPath(root, current));
    if (!st) return false;
    if (st.isSymbolicLink()) return true;
  }
  return false;
}

function isAbsence(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
