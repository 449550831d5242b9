// Project-relative paths: always '/'-separated, never absolute, never climbing out with '..'.
// Pure string checks; the history process adds the disk checks (symlinked parents) on top.

export type PathProblem = 'empty' | 'absolute' | 'dot-segment' | 'nul' | 'backslash';

/** Returns why a project-relative path is unacceptable, or null when it is fine. */
export function projectPathProblem(path: string): PathProblem | null {
  if (path.length === 0) return 'empty';
  if (path.includes('\0')) return 'nul';
  if (path.includes('\\')) return 'backslash';
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return 'absolute';
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
