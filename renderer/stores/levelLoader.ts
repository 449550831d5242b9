import { asError, folderLevel } from '../api/hindsight.js';
import type { GetApp, SetApp } from './appState.js';
import { withLevel } from './treeLevels.js';

// Reads one folder's level of the tree into the store. Each ask is numbered: an answer for a
// folder asked again since (or for a project no longer shown) is dropped, so a late older answer
// never paints over a newer one.

export interface LevelLoader {
  /** Asks for one folder's level ('' = the root). */
  load(folder: string): Promise<void>;
  /** Forgets the latest ask for a folder: an answer still on its way is dropped. */
  forget(folder: string): void;
  /** Forgets every ask (a project closed or changed). */
  forgetAll(): void;
}

export function levelLoader(set: SetApp, get: GetApp): LevelLoader {
  // The latest ask per folder: an older answer arriving late is dropped.
  let asked = new Map<string, number>();
  let next = 0;

  return {
    load: async (folder) => {
      const projectId = get().currentProjectId;
      if (!projectId) return;
      const mine = ++next;
      asked.set(folder, mine);
      const root = folder === '';
      // A level already shown stays shown while it is read again.
      if (get().levels.get(folder)?.status !== 'ready') {
        set((s) => ({ levels: withLevel(s.levels, folder, { status: 'loading' }), ...(root ? { treeStatus: 'loading' as const, treeError: null } : {}) }));
      }
      try {
        const level = await folderLevel(projectId, folder);
        if (asked.get(folder) !== mine || get().currentProjectId !== projectId) return;
        set((s) => ({ levels: withLevel(s.levels, folder, { status: 'ready', level }), ...(root ? { treeStatus: 'ready' as const, treeError: null } : {}) }));
      } catch (failure) {
        if (asked.get(folder) !== mine || get().currentProjectId !== projectId) return;
        const error = asError(failure).toJSON();
        set((s) => ({ levels: withLevel(s.levels, folder, { status: 'error', error }), ...(root ? { treeStatus: 'error' as const, treeError: error } : {}) }));
      }
    },
    forget: (folder) => {
      asked.delete(folder);
    },
    forgetAll: () => {
      asked = new Map();
    },
  };
}
