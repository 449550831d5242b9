import type { SnapshotEffect } from '../../shared/history.js';

// What changed on the engine's side since the view last read it, gathered from the snapshot
// events between two refreshes (their effects, shared/history.ts SnapshotEffect), so a refresh
// reads again only what the view shows of that.

export interface Stale {
  /** The paths recorded since; null: any path may have changed (many, or not told). */
  paths: ReadonlySet<string> | null;
  /** A file was deleted. */
  removed: boolean;
  /** The pins may have changed. */
  pinned: boolean;
}

/** Anything may have changed: a snapshot whose event told nothing, a connection back after a loss. */
export const EVERYTHING: Stale = { paths: null, removed: true, pinned: true };

export function staleOf(effect: SnapshotEffect | undefined): Stale {
  if (!effect) return EVERYTHING;
  return { paths: effect.paths && new Set(effect.paths), removed: effect.removed, pinned: effect.pinned };
}

export function mergeStale(a: Stale, b: Stale): Stale {
  const paths = a.paths && b.paths ? new Set([...a.paths, ...b.paths]) : null;
  return { paths, removed: a.removed || b.removed, pinned: a.pinned || b.pinned };
}

/** Whether a file's versions may have changed. */
export function touchesPath(stale: Stale, path: string): boolean {
  return stale.paths === null || stale.paths.has(path);
}

/** Whether any file was recorded. */
export function touchesFiles(stale: Stale): boolean {
  return stale.paths === null || stale.paths.size > 0;
}

/** Whether the deleted files may have changed: a deletion, or a file listed as deleted recorded again. */
export function touchesDeleted(stale: Stale, deleted: readonly { path: string }[]): boolean {
  return stale.removed || stale.paths === null || deleted.some((d) => stale.paths!.has(d.path));
}

/** The folders holding a recorded path, at any depth ('' the root); null: every folder. */
export function foldersTouched(stale: Stale): ReadonlySet<string> | null {
  if (stale.paths === null) return null;
  const folders = new Set<string>();
  for (const path of stale.paths) {
    folders.add('');
    for (let slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) folders.add(path.slice(0, slash));
  }
  return folders;
}
