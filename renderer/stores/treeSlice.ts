import type { DeletedFile, FileEntry } from '../../shared/contract.js';
import type { HindsightErrorData } from '../../shared/errors.js';
import { asError, call, wholeTree } from '../api/hindsight.js';
import type { Slice } from './appState.js';

// The current project's files: as they stand now, the ones deleted since, and which changed since
// the baseline. The baseline never changes, so its hashes are fetched once per project.

export interface TreeSlice {
  files: FileEntry[];
  deleted: DeletedFile[];
  /** Paths whose contents differ from the baseline (or that the baseline did not have). */
  changed: ReadonlySet<string>;
  treeStatus: 'idle' | 'loading' | 'ready' | 'error';
  treeError: HindsightErrorData | null;
  filter: string;
  showDeleted: boolean;
  expanded: ReadonlySet<string>;
  selectedPath: string | null;
  loadTree(): Promise<void>;
  resetTree(): void;
  setFilter(filter: string): void;
  setShowDeleted(show: boolean): void;
  toggleFolder(path: string, open?: boolean): void;
  selectPath(path: string | null): void;
}

const baselineHashes = new Map<string, Promise<Map<string, string>>>();

export const createTreeSlice: Slice<TreeSlice> = (set, get) => ({
  files: [],
  deleted: [],
  changed: new Set(),
  treeStatus: 'idle',
  treeError: null,
  filter: '',
  showDeleted: false,
  expanded: new Set(),
  selectedPath: null,

  loadTree: async () => {
    const projectId = get().currentProjectId;
    if (!projectId) return;
    if (get().treeStatus !== 'ready') set({ treeStatus: 'loading', treeError: null });
    try {
      // The tree paints as soon as the files arrive; the marks (changed since the baseline) and
      // the deleted files follow, so a first paint never waits for a second full listing.
      const baseline = baselineOf(projectId);
      const deleted = call('deletedFiles', { projectId }).catch(() => [] as DeletedFile[]);
      const files = await wholeTree(projectId);
      if (get().currentProjectId !== projectId) return;
      set({ files, treeStatus: 'ready', treeError: null });
      const [hashes, gone] = await Promise.all([baseline, deleted]);
      if (get().currentProjectId !== projectId || get().files !== files) return;
      const changed = new Set<string>();
      for (const f of files) if (hashes.get(f.path) !== f.hash) changed.add(f.path);
      set({ deleted: gone, changed });
    } catch (error) {
      if (get().currentProjectId !== projectId) return;
      set({ treeStatus: 'error', treeError: asError(error).toJSON() });
    }
  },

  resetTree: () =>
    set({ files: [], deleted: [], changed: new Set(), treeStatus: 'idle', treeError: null, filter: '', showDeleted: false, expanded: new Set(), selectedPath: null }),

  setFilter: (filter) => set({ filter }),
  setShowDeleted: (showDeleted) => set({ showDeleted }),

  toggleFolder: (path, open) =>
    set((s) => {
      const isOpen = s.expanded.has(path);
      const want = open ?? !isOpen;
      if (want === isOpen) return s;
      const expanded = new Set(s.expanded);
      if (want) expanded.add(path);
      else expanded.delete(path);
      return { expanded };
    }),

  selectPath: (path) => {
    if (path === get().selectedPath) return;
    set({ selectedPath: path });
    if (path) void get().loadVersions(path);
    else get().resetVersions();
  },
});

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
