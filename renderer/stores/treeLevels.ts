import type { FolderLevel } from '../../shared/contract.js';
import type { HindsightErrorData } from '../../shared/errors.js';

// The file tree's levels as the viewer holds them: one entry per folder it has asked for ('' is
// the project's root), each loading, listed or failed. Only the root and the folders a person
// opened are asked for (fileTree with `folder`), so a first paint never waits for every path.

export type LevelState = { status: 'loading' } | { status: 'ready'; level: FolderLevel } | { status: 'error'; error: HindsightErrorData };

export type Levels = ReadonlyMap<string, LevelState>;

/**
 * The folders whose levels a recorded change reads again: the root and every open folder that
 * holds a recorded path (`touched`: the folders holding one; null: every folder). The levels of
 * closed folders are dropped instead (they are asked for again when opened), so a refresh costs
 * one call per open folder it changed, never one per folder ever seen.
 */
export function levelsToRefresh(
  levels: Levels,
  expanded: ReadonlySet<string>,
  touched: ReadonlySet<string> | null = null,
): { refetch: string[]; drop: string[] } {
  const refetch = ['', ...expanded].filter((folder) => touched === null || touched.has(folder));
  const drop = [...levels.keys()].filter((folder) => folder !== '' && !expanded.has(folder));
  return { refetch, drop };
}

/** A copy of the levels with one folder's entry set (or removed with null). */
export function withLevel(levels: Levels, folder: string, state: LevelState | null): Levels {
  const next = new Map(levels);
  if (state) next.set(folder, state);
  else next.delete(folder);
  return next;
}

/** Whether an opened folder still needs its level asked for (never asked, or the last ask failed). */
export function needsLevel(levels: Levels, folder: string): boolean {
  const state = levels.get(folder);
  return !state || state.status === 'error';
}
