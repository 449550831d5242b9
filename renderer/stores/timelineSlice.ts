import type { RestorePreview, SnapshotChange, SnapshotInfo, SnapshotSummary } from '../../shared/contract.js';
import { snapshotName } from '../format/snapshotName.js';
import type { HindsightErrorData } from '../../shared/errors.js';
import { asError, call, newOperationId, wholeTree } from '../api/hindsight.js';
import type { Slice } from './appState.js';
import { holdRefresh } from './refresh.js';

// Every snapshot of the project (newest first), what each one changed (asked of the engine),
// restoring the project or a folder to one (preview first, from the engine) and named
// checkpoints. New snapshots arrive as the engine's events (snapshotRecorded), never by reading
// the whole log again.

export interface SnapshotRestoreDraft {
  snapshot: SnapshotInfo;
  /** A folder restore waits for its folder before asking for a preview. */
  scope: 'project' | 'folder';
  pathPrefix: string;
  deleteAdded: boolean;
  preview: RestorePreview | null;
  previewError: HindsightErrorData | null;
  running: boolean;
  /** The folders the snapshot holds, to pick from (null while they load). */
  folders: string[] | null;
}

export interface TimelineSlice {
  snapshots: SnapshotInfo[];
  timelineStatus: 'idle' | 'loading' | 'ready' | 'error';
  timelineError: HindsightErrorData | null;
  selectedSnapshotId: number | null;
  snapshotChanges: SnapshotChange[] | null;
  /** What the selected checkpoint or first copy holds (null until known, and for other snapshots). */
  snapshotSummary: SnapshotSummary | null;
  snapshotRestore: SnapshotRestoreDraft | null;
  checkpointDialog: boolean;
  loadTimeline(): Promise<void>;
  resetTimeline(): void;
  /** A snapshot the engine announced for the shown project. */
  snapshotRecorded(snapshot: SnapshotInfo): void;
  selectSnapshot(snapshotId: number): Promise<void>;
  beginSnapshotRestore(scope: 'project' | 'folder', pathPrefix?: string): void;
  editSnapshotRestore(change: { pathPrefix?: string; deleteAdded?: boolean }): void;
  cancelSnapshotRestore(): void;
  confirmSnapshotRestore(): Promise<void>;
  setCheckpointDialog(open: boolean): void;
  /** "Open as a new folder…": the dialog asking where, for the selected snapshot. */
  openAsFolderDialog: boolean;
  setOpenAsFolderDialog(open: boolean): void;
  /** Writes the selected snapshot into a new or empty folder, its progress on a card with Cancel. */
  openSnapshotAsFolder(into: string): Promise<boolean>;
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
      const preview = await call('previewRestore', {
        projectId,
        snapshotId: draft.snapshot.snapshotId,
        pathPrefix: draft.pathPrefix,
        deleteAdded: draft.deleteAdded,
      });
      const now = get().snapshotRestore;
      if (seq === previewSeq && now) set({ snapshotRestore: { ...now, preview } });
    } catch (error) {
      const now = get().snapshotRestore;
      if (seq === previewSeq && now) set({ snapshotRestore: { ...now, previewError: asError(error).toJSON() } });
    }
  }

  /** Every folder holding a file at the snapshot, sorted: what "Restore a folder" offers. */
  async function loadFolders(snapshotId: number): Promise<void> {
    const projectId = get().currentProjectId;
    if (!projectId) return;
    try {
      const files = await wholeTree(projectId, snapshotId);
      const folders = new Set<string>();
      for (const { path } of files) {
        for (let slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) folders.add(path.slice(0, slash));
      }
      const draft = get().snapshotRestore;
      if (draft?.snapshot.snapshotId === snapshotId) set({ snapshotRestore: { ...draft, folders: [...folders].sort() } });
    } catch {
      // Typing the folder still works.
      const draft = get().snapshotRestore;
      if (draft?.snapshot.snapshotId === snapshotId) set({ snapshotRestore: { ...draft, folders: [] } });
    }
  }

  async function restoreTo(projectId: string, snapshotId: number, pathPrefix: string, deleteAdded: boolean) {
    return holdRefresh(() =>
      call('restoreSnapshot', { projectId, snapshotId, pathPrefix, deleteAdded, dryRun: false, operationId: newOperationId('restore') }),
    );
  }

  return {
    snapshots: [],
    timelineStatus: 'idle',
    timelineError: null,
    selectedSnapshotId: null,
    snapshotChanges: null,
    snapshotSummary: null,
    snapshotRestore: null,
    checkpointDialog: false,
    openAsFolderDialog: false,

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

    snapshotRecorded: (snapshot) => {
      // Before the first load, the log read then will hold it.
      if (get().timelineStatus !== 'ready') return;
      set((state) => (state.snapshots.some((x) => x.snapshotId === snapshot.snapshotId) ? state : { snapshots: [snapshot, ...state.snapshots] }));
    },

    resetTimeline: () =>
      set({
        snapshots: [],
        timelineStatus: 'idle',
        timelineError: null,
        selectedSnapshotId: null,
        snapshotChanges: null,
        snapshotSummary: null,
        snapshotRestore: null,
        checkpointDialog: false,
      }),

    selectSnapshot: async (snapshotId) => {
      const projectId = get().currentProjectId;
      if (!projectId) return;
      set({ selectedSnapshotId: snapshotId, snapshotChanges: null, snapshotSummary: null });
      // A checkpoint records no file of its own: what it holds is the question.
      const kind = get().snapshots.find((s) => s.snapshotId === snapshotId)?.kind;
      if (kind === 'checkpoint' || kind === 'baseline') {
        call('snapshotSummary', { projectId, snapshotId })
          .then((summary) => {
            if (get().selectedSnapshotId === snapshotId) set({ snapshotSummary: summary });
          })
          .catch(() => undefined);
      }
      try {
        const changes = await call('snapshotChanges', { projectId, snapshotId });
        if (get().selectedSnapshotId === snapshotId) set({ snapshotChanges: changes });
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
      set({ snapshotRestore: { snapshot, scope, pathPrefix, deleteAdded: false, preview: null, previewError: null, running: false, folders: null } });
      void refreshPreview();
      if (scope === 'folder') void loadFolders(snapshot.snapshotId);
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
        const where = draft.pathPrefix ? draft.pathPrefix : 'The project';
        // The engine says what undoes it: restoring the snapshot recorded just before the restore.
        const undoTo = result.snapshotId === null ? null : result.undoSnapshotId;
        get().pushToast({
          tone: 'info',
          message: result.snapshotId === null ? `${where} already matches that snapshot.` : `${where} was restored to ${snapshotName(draft.snapshot)}.`,
          action:
            undoTo !== null
              ? {
                  label: 'Undo',
                  run: () =>
                    void restoreTo(projectId, undoTo, draft.pathPrefix, true)
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

    setOpenAsFolderDialog: (openAsFolderDialog) => set({ openAsFolderDialog }),

    openSnapshotAsFolder: async (into) => {
      const { currentProjectId: projectId, selectedSnapshotId: snapshotId } = get();
      if (!projectId || snapshotId === null) return false;
      const operationId = newOperationId('open-as-folder');
      set({ openAsFolderDialog: false });
      get().beginCopy(operationId, into, false, 'materialize');
      try {
        const result = await call('materializeSnapshot', { projectId, snapshotId, into, operationId });
        const links = result.links > 0 ? ` and ${result.links} links` : '';
        const name = snapshotName(get().snapshots.find((s) => s.snapshotId === snapshotId));
        get().pushToast({ tone: 'info', message: `${name[0]!.toUpperCase()}${name.slice(1)} written into ${result.into}: ${result.files} files${links}.` });
        return true;
      } catch (error) {
        const failure = asError(error);
        get().pushToast({ tone: 'error', message: failure.code === 'CANCELLED' ? `Cancelled: nothing was written into ${into}.` : failure.message });
        return false;
      } finally {
        get().endCopy(operationId);
      }
    },

    createCheckpoint: async (label) => {
      const projectId = get().currentProjectId;
      if (!projectId) return false;
      try {
        const snapshot = await holdRefresh(() => call('createCheckpoint', { projectId, label }));
        set({ checkpointDialog: false });
        get().pushToast({ tone: 'info', message: `Checkpoint “${snapshot.label ?? label}” saved.` });
        return true;
      } catch (error) {
        get().pushToast({ tone: 'error', message: asError(error).message });
        return false;
      }
    },
  };
};
