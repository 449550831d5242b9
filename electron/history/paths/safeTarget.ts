import { lstatSync } from 'node:fs';
import { join, sep } from 'node:path';
import { HindsightError } from '../../../shared/errors.js';
import { projectPathProblem, type PathRules } from '../../../shared/projectPath.js';
import { fsArg, realPath } from './fsPath.js';

// Where a restore may write: only inside the project folder. A path with '..', an absolute path,
// or one whose parent folders lead outside through a symlink is refused with a clear error.

/** This machine's names: a Windows file system also reads a backslash and a drive letter. */
const RULES: PathRules = process.platform === 'win32' ? 'windows' : 'posix';

export function assertProjectPath(path: string): void {
  const problem = projectPathProblem(path, RULES);
  if (problem === 'absolute' || problem === 'dot-segment') {
    throw new HindsightError('PATH_OUTSIDE_ROOT', `The path ${JSON.stringify(path)} is not inside the project folder.`, {
      path,
      problem,
    });
  }
  if (problem) {
    throw new HindsightError('PATH_INVALID', `The path ${JSON.stringify(path)} is not a valid project path (${problem}).`, {
      path,
      problem,
    });
  }
}

/**
 * Resolves a project path to the absolute path a restore writes, checking every existing parent
 * folder on disk: a parent that is a symlink must still resolve inside the root. The answer is in
 * the stored form (paths/fsPath.ts): give fs calls fsArg of it.
 */
export function safeTarget(root: string, path: string): string {
  assertProjectPath(path);
  const parts = path.split('/');
  let current = root;
  for (const part of parts.slice(0, -1)) {
    current = join(current, part);
    let isLink: boolean;
    try {
      const st = lstatSync(fsArg(current));
      if (!st.isDirectory() && !st.isSymbolicLink()) {
        throw new HindsightError('PATH_INVALID', `Cannot restore ${path}: ${current} is a file, not a folder.`, { path });
      }
      isLink = st.isSymbolicLink();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') break; // the rest will be made inside root
      throw error;
    }
    if (isLink && !isInside(root, realpathOrSelf(current))) {
      throw new HindsightError('PATH_OUTSIDE_ROOT', `Cannot restore ${path}: a parent folder is a link that leads outside the project.`, {
        path,
      });
    }
  }
  // eslint-disable-next-line no-restricted-syntax -- a path's segments: fewer than its bytes, which PATH_MAX bounds
  return join(root, ...parts);
}

function realpathOrSelf(path: string): string {
  try {
    return realPath(path);
  } catch {
    return path; // a dangling link: it is replaced, never followed
  }
}

export function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}
