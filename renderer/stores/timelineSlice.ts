import type { FileEntry, RestorePreview, SnapshotInfo } from '../../shared/contract.js';
import type { HindsightErrorData } from '../../shared/errors.js';
import { asError, call, newOperationId } from '../api/hindsight.js';
import type { Slice } from './appState.js';

// Every snapshot of the project (newest first), what each one changed, restoring the project or
// a folder to one (preview first, from the engine) and named checkpoints.

export interface SnapshotChange {
  path: string;
  change: 'added' | 'modified' | 'deleted';
}

export interface SnapshotRestoreDraft {
  snapshot: SnapshotInfo;
  /** A folder restore waits for its folder before asking for a preview. */
  scope: 'project' | 'folder';
  pathPrefix: string;
  deleteAdded: boolean;
  preview: RestorePreview | null;
  previewError: HindsightErrorData | null;
  running: boolean;
}

export interface TimelineSlice {
  snapshots: SnapshotInfo[];
  timelineStatus: 'idle' | 'loading' | 'ready' | 'error';
  timelineError: HindsightErrorData | null;
  selectedSnapshotId: number | null;
  snapshotChanges: SnapshotChange[] | null;
  snapshotRestore: SnapshotRestoreDraft | null;
  checkpointDialog: boolean;
  loadTimeline(): Promise<void>;
  resetTimeline(): void;
  selectSnapshot(snapshotId: number): Promise<void>;
  beginSnapshotRestore(scope: 'project' | 'folder', pathPrefix?: string): void;
  editSnapshotRestore(change: { pathPrefix?: string; deleteAdded?: boolean }): void;
  cancelSnapshotRestore(): void;
  confirmSnapshotRestore(): Promise<void>;
  setCheckpointDialog(open: boolean): void;
  createCheckpoint(label: string): Promise<boolean>;
}

export const createTimelineSlice: Slice<TimelineSlice> = (set, get) => {
  let previewSeq = 0;

  async function refreshPreview(): Promise<void> {
    const draft = get().snapshotRestore;
    const projectId = get().currentProjectId;
    if (!draft || !projectId) return;
    const seq = ++previewSeq;
    set({ snapshotRestore: { ...draft, preview: null, previewError: null } });
    if (draft.scope === 'folder' && draft.pathPrefix.trim() === '') return;
    try {
      const preview = await call('previewRestore', { projectId, snapshotId: draft.snapshot.snapshotId, pathPrefix: draft.pathPrefix, deleteAdded: draft.deleteAdded });
      const now = get().snapshotRestore;
      if (seq === previewSeq && now) set({ snapshotRestore: { ...now, preview } });
    } catch (error) {
      const now = get().snapshotRestore;
      if (seq === previewSeq && now) set({ snapshotRestore: { ...now, previewError: asError(error).toJSON() } });
    }
  }

  async function restoreTo(projectId: string, snapshotId: number, pathPrefix: string, deleteAdded: boolean) {
    return call('restoreSnapshot', { projectId, snapshotId, pathPrefix, deleteAdded, dryRun: false, operationId: newOperationId('restore') });
  }

  return {
    snapshots: [],
    timelineStatus: 'idle',
    timelineError: null,
    selectedSnapshotId: null,
    snapshotChanges: null,
    snapshotRestore: null,
    checkpointDialog: false,

    loadTimeline: async () => {
      const projectId = get().currentProjectId;
      if (!projectId) return;
      if (get().timelineStatus !== 'ready') set({ timelineStatus: 'loading' });
      try {
        const snapshots = (await call('log', { projectId })).slice().reverse();
        if (get().currentProjectId !== projectId) return;
        set({ snapshots, timelineStatus: 'ready', timelineError: null });
        if (get().selectedSnapshotId === null && snapshots[0]) void get().selectSnapshot(snapshots[0].snapshotId);
      } catch (error) {
        set({ timelineStatus: 'error', timelineError: asError(error).toJSON() });
      }
    },

    resetTimeline: () =>
      set({ snapshots: [], timelineStatus: 'idle', timelineError: null, selectedSnapshotId: null, snapshotChanges: null, snapshotRestore: null, checkpointDialog: false }),

    selectSnapshot: async (snapshotId) => {
      const projectId = get().currentProjectId;
      if (!projectId) return;
      set({ selectedSnapshotId: snapshotId, snapshotChanges: null });
      const snapshots = get().snapshots;
      const index = snapshots.findIndex((s) => s.snapshotId === snapshotId);
      const before = snapshots[index + 1];
      try {
        const [at, prior] = await Promise.all([
          call('fileTree', { projectId, snapshotId }),
          before ? call('fileTree', { projectId, snapshotId: before.snapshotId }) : Promise.resolve([] as FileEntry[]),
        ]);
        if (get().selectedSnapshotId === snapshotId) set({ snapshotChanges: changesBetween(prior, at) });
      } catch (error) {
        if (get().selectedSnapshotId === snapshotId) {
          set({ snapshotChanges: [] });
          get().pushToast({ tone: 'error', message: asError(error).message });
        }
      }
    },

    beginSnapshotRestore: (scope, pathPrefix = '') => {
      const snapshot = get().snapshots.find((s) => s.snapshotId === get().selectedSnapshotId);
      if (!snapshot) return;
      set({ snapshotRestore: { snapshot, scope, pathPrefix, deleteAdded: false, preview: null, previewError: null, running: false } });
      void refreshPreview();
    },

    editSnapshotRestore: (change) => {
      const draft = get().snapshotRestore;
      if (!draft) return;
      set({ snapshotRestore: { ...draft, ...change } });
      void refreshPreview();
    },

    cancelSnapshotRestore: () => set({ snapshotRestore: null }),

    confirmSnapshotRestore: async () => {
      const draft = get().snapshotRestore;
      const projectId = get().currentProjectId;
      if (!draft || !projectId || draft.running || (draft.scope === 'folder' && draft.pathPrefix.trim() === '')) return;
      set({ snapshotRestore: { ...draft, running: true } });
      try {
        const result = await restoreTo(projectId, draft.snapshot.snapshotId, draft.pathPrefix, draft.deleteAdded);
        set({ snapshotRestore: null });
        await Promise.all([get().loadTimeline(), get().loadTree()]);
        const where = draft.pathPrefix ? draft.pathPrefix : 'The project';
        const undoTo = result.snapshotId === null ? undefined : snapshotBefore(get().snapshots, result.snapshotId);
        get().pushToast({
          tone: 'info',
          message: result.snapshotId === null ? `${where} already matches that snapshot.` : `${where} was restored to the snapshot of ${new Date(draft.snapshot.at).toLocaleString()}.`,
          action: undoTo
            ? {
                label: 'Undo',
                run: () =>
                  void restoreTo(projectId, undoTo.snapshotId, draft.pathPrefix, true)
                    .then(() => Promise.all([get().loadTimeline(), get().loadTree()]))
                    .then(() => get().pushToast({ tone: 'info', message: 'Undone: the files are back as they were.' }))
                    .catch((error: unknown) => get().pushToast({ tone: 'error', message: `Undo failed: ${asError(error).message}` })),
              }
            : undefined,
        });
      } catch (error) {
        set({ snapshotRestore: null });
        get().pushToast({ tone: 'error', message: asError(error).message });
      }
    },

    setCheckpointDialog: (checkpointDialog) => set({ checkpointDialog }),

    createCheckpoint: async (label) => {
      const projectId = get().currentProjectId;
      if (!projectId) return false;
      try {
        const snapshot = await call('createCheckpoint', { projectId, label });
        set({ checkpointDialog: false });
        get().pushToast({ tone: 'info', message: `Checkpoint “${snapshot.label ?? label}” saved.` });
        await get().loadTimeline();
        return true;
      } catch (error) {
        get().pushToast({ tone: 'error', message: asError(error).message });
        return false;
      }
    },
  };
};

/** The snapshot just before a given one (newest-first input). */
function snapshotBefore(newestFirst: SnapshotInfo[], snapshotId: number): SnapshotInfo | undefined {
  const index = newestFirst.findIndex((s) => s.snapshotId === snapshotId);
  return index >= 0 ? newestFirst[index + 1] : undefined;
}

function changesBetween(before: FileEntry[], after: FileEntry[]): SnapshotChange[] {
  const old = new Map(before.map((f) => [f.path, f.hash + f.mode]));
  const changes: SnapshotChange[] = [];
  const seen = new Set<string>();
  for (const f of after) {
    seen.add(f.path);
    const was = old.get(f.path);
    if (was === undefined) changes.push({ path: f.path, change: 'added' });
    else if (was !== f.hash + f.mode) changes.push({ path: f.path, change: 'modified' });
  }
  for (const f of before) if (!seen.has(f.path)) changes.push({ path: f.path, change: 'deleted' });
  return changes.sort((a, b) => (a.path < b.path ? -1 : 1));
}
