import { statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { GitRepository } from './findRepository.js';
import { trackedPaths, type TrackedPaths } from './trackedPaths.js';

// The tracked-file list of a folder, kept per process while git's index is the same file: every
// rescan and every watch start asks for it, and on a large repository listing and parsing it costs
// more than the rest of an unchanged rescan. git rewrites the index by renaming index.lock over it
// (a new inode) and any change to it moves its size, mtime or ctime, so the index's stat identity
// says whether the list can still be right. HEAD does not enter the key: `ls-files --cached`
// lists the index, whatever HEAD is.

interface Listed {
  key: string;
  paths: Promise<TrackedPaths>;
}

const lists = new Map<string, Listed>();

export function cachedTrackedPaths(folder: string, repo: GitRepository): Promise<TrackedPaths> {
  const key = indexKey(indexPathOf(repo));
  const listed = lists.get(folder);
  if (key !== undefined && listed?.key === key) return listed.paths;
  const paths = trackedPaths(folder);
  if (key === undefined) lists.delete(folder);
  else lists.set(folder, { key, paths });
  // A failed listing is not kept: the next ask runs git again.
  paths.catch(() => {
    if (lists.get(folder)?.paths === paths) lists.delete(folder);
  });
  return paths;
}

/**
 * The index git itself uses for this working tree: $GIT_INDEX_FILE when set (git resolves it from
 * its working folder, the top of the tree here), else `index` in this working tree's own git folder
 * (findRepository follows a worktree's or a submodule's `.git` file to it, as git does).
 */
export function indexPathOf(repo: GitRepository): string {
  const fromEnv = process.env.GIT_INDEX_FILE;
  if (fromEnv) return isAbsolute(fromEnv) ? fromEnv : resolve(repo.workTree, fromEnv);
  return join(repo.gitDir, 'index');
}

/** Device, inode, size, mtime and ctime in ns; a missing index ("nothing staged yet") has its own key. */
function indexKey(path: string): string | undefined {
  try {
    const st = statSync(path, { bigint: true, throwIfNoEntry: false });
    if (!st) return 'none';
    return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    return undefined;
  }
}
