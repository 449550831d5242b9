// Project-relative paths: always '/'-separated, never absolute, never climbing out with '..'.
// Pure string checks; the history process adds the disk checks (symlinked parents) on top.
// A path is accepted exactly when the walk can record it: on Linux and macOS a name is any
// bytes but '/' and NUL, so a backslash or a leading 'C:' is an ordinary part of a name there.

export type PathProblem = 'empty' | 'absolute' | 'dot-segment' | 'nul' | 'backslash';

/** Which file system's names a path must fit: 'windows' also refuses a backslash and a drive letter. */
export type PathRules = 'posix' | 'windows';

/** Returns why a project-relative path is unacceptable, or null when it is fine. */
export function projectPathProblem(path: string, rules: PathRules = 'posix'): PathProblem | null {
  if (path.length === 0) return 'empty';
  if (path.includes('\0')) return 'nul';
  if (path.startsWith('/')) return 'absolute';
  if (rules === 'windows') {
    // Windows reads a backslash as a separator and 'C:' as a drive, so such a name would land elsewhere.
    if (path.includes('\\')) return 'backslash';
    if (/^[A-Za-z]:/.test(path)) return 'absolute';
  }
  for (const segment of path.split('/')) {
    if (segment === '..' || segment === '.' || segment === '') return 'dot-segment';
  }
  return null;
}

/** Whether `path` is `prefix` itself or lies under the folder `prefix` (both project-relative). */
export function isUnderPrefix(path: string, prefix: string): boolean {
  if (prefix === '' || prefix === '.') return true;
  const folder = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  return path === folder || path.startsWith(`${folder}/`);
}

/** Compares two project paths by their UTF-16 code units, the order every listing uses. */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
