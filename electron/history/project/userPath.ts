import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { HindsightError } from '../../../shared/errors.js';
import { isInside } from '../paths/safeTarget.js';
import { diskSpelling } from '../paths/diskSpelling.js';
import { realPath } from '../paths/fsPath.js';

// A path as a person types it (`./builtin/add.c`, `add.c` from inside builtin/, an absolute path
// inside the project) turned into the project path the history knows (`builtin/add.c`). The one
// place that does it; anything that lands outside the project root is refused.
//
// Relative paths follow git's rule: relative to the current folder when that lies inside the
// project, relative to the project root otherwise. The named file may no longer exist (a deleted
// file still has history), so only its existing parent folders are resolved on disk; the last
// part is never followed, so a recorded symlink is asked about by its own name.

export interface UserPathOptions {
  /** The folder relative paths start from when it lies inside the project (default: process.cwd()). */
  cwd?: string;
  /** Whether the project folder itself is an answer (''), as for a folder prefix. */
  allowRoot?: boolean;
}

/** The project path of `userPath` in the project whose real root is `root`. */
export function projectPathOf(root: string, userPath: string, options: UserPathOptions = {}): string {
  if (userPath.length === 0) throw new HindsightError('PATH_INVALID', 'The path is empty.', { path: userPath });
  if (userPath.includes('\0')) throw new HindsightError('PATH_INVALID', `The path ${JSON.stringify(userPath)} contains a NUL byte.`, { path: userPath });
  const cwd = realOrSelf(options.cwd ?? process.cwd());
  const base = isAbsolute(userPath) ? '' : isInside(root, cwd) ? cwd : root;
  const lexical = base === '' ? resolve(userPath) : resolve(base, userPath);
  // The spelling on disk, the last part included (looked up, never followed): `README.MD` typed
  // where names fold is the file the history knows as `README.md`.
  const real = diskSpelling(withRealParents(lexical));
  if (!isInside(root, real)) {
    throw new HindsightError('PATH_OUTSIDE_ROOT', `${userPath} is not inside the project folder ${root}.`, { path: userPath, root });
  }
  const path = relative(root, real).split(sep).join('/');
  if (path === '' && !options.allowRoot) {
    throw new HindsightError('PATH_INVALID', `${userPath} is the project folder itself; name a file in it.`, { path: userPath, root });
  }
  return path;
}

/** `path` with its existing parent folders resolved through links; the last part is kept as named. */
function withRealParents(path: string): string {
  const parent = dirname(path);
  if (parent === path) return path;
  const name = path.slice(parent.length).replace(/^[/\\]+/, '');
  return resolve(deepestReal(parent), name);
}

/** The real path of `path`, or of its deepest existing ancestor with the rest appended. */
export function deepestReal(path: string): string {
  try {
    return diskSpelling(realPath(path));
  } catch {
    const parent = dirname(path);
    if (parent === path) return path;
    return resolve(deepestReal(parent), path.slice(parent.length).replace(/^[/\\]+/, ''));
  }
}

function realOrSelf(path: string): string {
  try {
    return diskSpelling(realpathSync(path));
  } catch {
    return resolve(path);
  }
}
