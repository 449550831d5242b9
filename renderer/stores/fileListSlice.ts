import type { FileEntry } from '../../shared/contract.js';
import type { HindsightErrorData } from '../../shared/errors.js';
import { asError, call, wholeTree } from '../api/hindsight.js';
import type { Slice } from './appState.js';

// Every path of the current project at once, with its mark (changed since the baseline): what the
// filter matches against. The tree itself paints from folder levels (treeSlice.ts); this list is
// asked for only when the filter is used, never before the tree's first paint. The baseline never
// changes, so its hashes are fetched once per project.

export interface FileListSlice {
  /** Every file now, sorted by path; null until the filter asks for it. */
  allFiles: FileEntry[] | null;
  /** Paths whose contents differ from the baseline (or that the baseline did not have). */
  changed: ReadonlySet<string>;
  fileListStatus: 'idle' | 'loading' | 'ready' | 'error';
  fileListError: HindsightErrorData | null;
  /** Reads the whole list (again, when `fresh`: a change was recorded); once otherwise. */
  loadFileList(fresh?: boolean): Promise<void>;
  /** After a recorded change: read again if the filter shows it, else forget it until it is used. */
  refreshFileList(): Promise<void>;
  resetFileList(): void;
}

const baselineHashes = new Map<string, Promise<Map<string, string>>>();

export const createFileListSlice: Slice<FileListSlice> = (set, get) => {
  let seq = 0;
  return {
    allFiles: null,
    changed: new Set(),
    fileListStatus: 'idle',
    fileListError: null,

    loadFileList: async (fresh = false) => {
      const projectId = get().currentProjectId;
      if (!projectId) return;
      const status = get().fileListStatus;
      if (!fresh && (status === 'ready' || status === 'loading')) return;
      const mine = ++seq;
      if (status !== 'ready') set({ fileListStatus: 'loading', fileListError: null });
      try {
        // The filter works as soon as the paths arrive; the marks follow.
        const baseline = baselineOf(projectId);
        const files = await wholeTree(projectId);
        if (mine !== seq || get().currentProjectId !== projectId) return;
        set({ allFiles: files, fileListStatus: 'ready', fileListError: null });
        const hashes = await baseline;
        if (mine !== seq || get().currentProjectId !== projectId) return;
        const changed = new Set<string>();
        for (const f of files) if (hashes.get(f.path) !== f.hash) changed.add(f.path);
        set({ changed });
      } catch (error) {
        if (mine !== seq || get().currentProjectId !== projectId) return;
        set({ fileListStatus: 'error', fileListError: asError(error).toJSON() });
      }
    },

    refreshFileList: async () => {
      if (get().fileListStatus === 'idle') return;
      if (get().filter.trim() !== '') return get().loadFileList(true);
      get().resetFileList();
    },

    resetFileList: () => {
      seq++;
      set({ allFiles: null, changed: new Set(), fileListStatus: 'idle', fileListError: null });
    },
  };
};

function baselineOf(projectId: string): Promise<Map<string, string>> {
  let known = baselineHashes.get(projectId);
  if (!known) {
    known = (async () => {
      const snapshots = await call('log', { projectId });
      const baseline = snapshots.find((s) => s.kind === 'baseline');
      if (!baseline) return new Map<string, string>();
      const files = await wholeTree(projectId, baseline.snapshotId);
      return new Map(files.map((f) => [f.path, f.hash]));
    })();
    known.catch(() => baselineHashes.delete(projectId));
    baselineHashes.set(projectId, known);
  }
  return known;
}
