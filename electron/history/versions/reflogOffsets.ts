import type { ProjectStore } from '../project/projectStore.js';

// How far into one of the repository's reflogs (HEAD's, the stash's) the history has recorded: a
// meta row per reflog naming the git folder too, so an offset into another repository's reflog
// (the folder became another repository) is never taken for this one's.

/** The recorded offset into the reflog `key` names, if it was recorded for this git folder. */
export function seenOffsetIn(store: ProjectStore, key: string, gitDir: string): number | undefined {
  const raw = store.index.getMeta(key);
  if (!raw) return undefined;
  try {
    const seen = JSON.parse(raw) as { gitDir?: unknown; size?: unknown };
    return seen.gitDir === gitDir && typeof seen.size === 'number' ? seen.size : undefined;
  } catch {
    return undefined;
  }
}

/** Records that the reflog `key` names is in the history up to `size` bytes. */
export function noteSeenOffset(store: ProjectStore, key: string, gitDir: string, size: number): void {
  store.index.setMeta(key, JSON.stringify({ gitDir, size }));
}
