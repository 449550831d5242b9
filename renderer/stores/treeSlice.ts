import type { DeletedFile } from '../../shared/contract.js';
import type { HindsightErrorData } from '../../shared/errors.js';
import { call } from '../api/hindsight.js';
import type { Slice } from './appState.js';
import { levelLoader } from './levelLoader.js';
import { EVERYTHING, foldersTouched, touchesDeleted, touchesFiles, type Stale } from './staleView.js';
import { levelsToRefresh, needsLevel, withLevel, type Levels } from './treeLevels.js';

// The current project's file tree, loaded a level at a time: the root first (the first paint),
// then each folder's level when it is opened (by a click, a key, or a file selected elsewhere
// whose folders open). Each level carries its own marks (changed since the baseline) and
// deletions. The files deleted since the first copy follow the first paint as one list (the
// Deleted view and its count). A recorded change reads again the root and the open folders
// holding a path it recorded, and the deleted files when it deleted or brought back one.

export interface TreeSlice {
  levels: Levels;
  deleted: DeletedFile[];
  /** The root level's state: what the Files view shows before the tree. */
  treeStatus: 'idle' | 'loading' | 'ready' | 'error';
  treeError: HindsightErrorData | null;
  filter: string;
  showDeleted: boolean;
  expanded: ReadonlySet<string>;
  selectedPath: string | null;
  /** The root level, then the deleted files; once per project (a second call waits for the first). */
  loadTree(): Promise<void>;
  /**
   * After a recorded change: the root and the open folders holding a changed path read again,
   * closed ones forgotten; the deleted files when they changed (default: all of it changed).
   */
  refreshTree(stale?: Stale): Promise<void>;
  /** Asks for one folder's level ('' = the root); an answer for a level asked again since is dropped. */
  loadLevel(folder: string): Promise<void>;
  resetTree(): void;
  setFilter(filter: string): void;
  setShowDeleted(show: boolean): void;
  /** Opens or closes a folder; opening one whose level is not known asks for it. */
  toggleFolder(path: string, open?: boolean): void;
  selectPath(path: string | null): void;
}

export const createTreeSlice: Slice<TreeSlice> = (set, get) => {
  const loader = levelLoader(set, get);
  let firstLoad: { projectId: string; done: Promise<void> } | null = null;

  async function loadDeleted(projectId: string): Promise<void> {
    const deleted = await call('deletedFiles', { projectId }).catch(() => null);
    if (deleted && get().currentProjectId === projectId) set({ deleted });
  }

  return {
    levels: new Map(),
    deleted: [],
    treeStatus: 'idle',
    treeError: null,
    filter: '',
    showDeleted: false,
    expanded: new Set(),
    selectedPath: null,

    loadTree: () => {
      const projectId = get().currentProjectId;
      if (!projectId) return Promise.resolve();
      if (firstLoad?.projectId === projectId && get().treeStatus !== 'error') return firstLoad.done;
      // The deleted files follow the first paint: the tree never waits for them.
      const done = get()
        .loadLevel('')
        .then(() => loadDeleted(projectId));
      firstLoad = { projectId, done };
      return done;
    },

    refreshTree: async (stale = EVERYTHING) => {
      const projectId = get().currentProjectId;
      if (!projectId) return;
      const { refetch, drop } = levelsToRefresh(get().levels, get().expanded, foldersTouched(stale));
      for (const folder of drop) loader.forget(folder);
      set((s) => ({ levels: drop.reduce((levels, folder) => withLevel(levels, folder, null), s.levels) }));
      await Promise.all([
        ...refetch.map((folder) => get().loadLevel(folder)),
        touchesDeleted(stale, get().deleted) ? loadDeleted(projectId) : undefined,
        touchesFiles(stale) ? get().refreshFileList() : undefined,
      ]);
    },

    loadLevel: (folder) => loader.load(folder),

    resetTree: () => {
      loader.forgetAll();
      firstLoad = null;
      set({ levels: new Map(), deleted: [], treeStatus: 'idle', treeError: null, filter: '', showDeleted: false, expanded: new Set(), selectedPath: null });
      get().resetFileList();
    },

    setFilter: (filter) => {
      set({ filter });
      // The filter matches every path: the whole list is asked for the first time it is used.
      if (filter.trim() !== '') void get().loadFileList();
    },
    setShowDeleted: (showDeleted) => set({ showDeleted }),

    toggleFolder: (path, open) => {
      const s = get();
      const isOpen = s.expanded.has(path);
      const want = open ?? !isOpen;
      if (want === isOpen) return;
      const expanded = new Set(s.expanded);
      if (want) expanded.add(path);
      else expanded.delete(path);
      set({ expanded });
      if (want && needsLevel(get().levels, path)) void get().loadLevel(path);
    },

    selectPath: (path) => {
      if (path === get().selectedPath) return;
      set({ selectedPath: path });
      // Working in the project now: its "Copied …" line has done its job.
      const projectId = get().currentProjectId;
      if (path && projectId) get().settleFinished(projectId);
      if (path) void get().loadVersions(path);
      else get().resetVersions();
    },
  };
};
