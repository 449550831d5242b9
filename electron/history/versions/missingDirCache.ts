import type { WalkEntry } from '../walk/walkFolder.js';
import { count } from '../trace.js';
import { folderExists, statPath } from '../walk/statPath.js';

// Checks recorded paths the walk did not find, in sorted order, remembering which folder is known
// to be missing so the paths under it cost no lstat (git's sparse-index cache, seed 004).
//
// 'top-most' (the default) keeps the highest missing folder of the last missing path: once
// `a/b/` is known missing, every `a/b/...` path is answered from memory, however deep and however
// many different parent folders its paths have. Finding that folder costs a few lstats, walking
// down from the deepest folder known to exist. 'parent' keeps only the immediate parent folder, as
// git did before: it pays again for each new leaf folder. It stays for comparison in the tests
// and the benchmark.

export type MissingDirStrategy = 'top-most' | 'parent';

export class MissingDirCache {
  /** A missing folder with its trailing '/', or '' when none is known. */
  private missing = '';
  /** 'parent' only: the last parent folder looked at, and whether it exists. */
  private parentDir = '';
  private parentFound = false;

  constructor(
    private readonly root: string,
    private readonly strategy: MissingDirStrategy = 'top-most',
  ) {}

  /** What is at `path` now; undefined when it is gone. Paths must come in sorted order. */
  check(path: string): WalkEntry | undefined {
    count('rescan.paths');
    if (this.strategy === 'parent') return this.checkParent(path);
    if (this.missing !== '' && path.startsWith(this.missing)) return undefined;
    const entry = statPath(this.root, path);
    if (entry) return entry;
    this.missing = this.topMostMissing(path);
    return undefined;
  }

  /**
   * The highest missing folder on the way to a missing path. The common folder prefix of `path`
   * and the previous missing folder exists (it is a proper prefix of that folder, whose parent
   * exists), so the search starts below it. When every parent exists, the path itself plus '/'
   * is kept: no later path can start with it, as no other path lies under a file.
   */
  private topMostMissing(path: string): string {
    let known = commonFolderPrefix(path, this.missing);
    for (;;) {
      const slash = path.indexOf('/', known.length);
      if (slash < 0) return `${path}/`;
      known = path.slice(0, slash + 1);
      if (!folderExists(this.root, known.slice(0, -1))) return known;
    }
  }

  private checkParent(path: string): WalkEntry | undefined {
    if (this.parentDir !== '' && !this.parentFound && path.startsWith(this.parentDir)) return undefined;
    const entry = statPath(this.root, path);
    if (entry) return entry;
    const slash = path.lastIndexOf('/');
    if (slash < 0) return undefined;
    const parent = path.slice(0, slash + 1);
    if (this.parentFound && parent === this.parentDir) return undefined;
    this.parentDir = parent;
    this.parentFound = folderExists(this.root, parent.slice(0, -1));
    return undefined;
  }
}

/** The longest run of whole folders ('x/y/') that two paths share. */
export function commonFolderPrefix(a: string, b: string): string {
  let end = 0;
  const limit = Math.min(a.length, b.length);
  for (let i = 0; i < limit && a[i] === b[i]; i++) if (a[i] === '/') end = i + 1;
  return a.slice(0, end);
}
