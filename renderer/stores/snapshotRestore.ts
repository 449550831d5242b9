import { asError, call, newOperationId, wholeTree } from '../api/hindsight.js';
import { snapshotName } from '../format/snapshotName.js';
import type { GetApp, SetApp } from './appState.js';
import { holdRefresh } from './refresh.js';
import { shownRules } from './shownRules.js';
import { foldsAnything, sameName, type NameRules } from '../../shared/nameFold.js';
import type { SnapshotRestoreDraft, TimelineSlice } from './timelineSlice.js';

// Restoring the project or a folder to the selected snapshot: a draft whose preview the engine
// answers again at each edit (a late answer for an older draft is dropped), then the restore
// under holdRefresh and a toast offering Undo (the undoRestore call, as the restore's Timeline
// entry offers it). A folder typed in another spelling (`SRC` for src/) is, where the project's
// folder folds names, the snapshot's folder: the engine is asked with the snapshot's spelling.

type Restore = Pick<TimelineSlice, 'beginSnapshotRestore' | 'editSnapshotRestore' | 'cancelSnapshotRestore' | 'confirmSnapshotRestore'>;

export function snapshotRestoreActions(set: SetApp, get: GetApp): Restore {
  let previewSeq = 0;
  const refreshPreview = () => loadPreview(set, get, ++previewSeq, () => previewSeq);
  return {
    beginSnapshotRestore: (scope, pathPrefix = '') => {
      const snapshot = get().snapshots.find((s) => s.snapshotId === get().selectedSnapshotId);
      if (!snapshot) return;
      set({ snapshotRestore: { snapshot, scope, pathPrefix, deleteAdded: false, preview: null, previewError: null, running: false, folders: null } });
      void refreshPreview();
      if (scope === 'folder') void loadFolders(set, get, snapshot.snapshotId, refreshPreview);
    },
    editSnapshotRestore: (change) => {
      const draft = get().snapshotRestore;
      if (!draft) return;
      set({ snapshotRestore: { ...draft, ...change } });
      void refreshPreview();
    },
    cancelSnapshotRestore: () => set({ snapshotRestore: null }),
    confirmSnapshotRestore: () => confirmSnapshotRestore(set, get),
  };
}

async function loadPreview(set: SetApp, get: GetApp, seq: number, latest: () => number): Promise<void> {
  const draft = get().snapshotRestore;
  const projectId = get().currentProjectId;
  if (!draft || !projectId) return;
  set({ snapshotRestore: { ...draft, preview: null, previewError: null } });
  if (draft.scope === 'folder' && draft.pathPrefix.trim() === '') return;
  const update = (change: Partial<SnapshotRestoreDraft>) => {
    const now = get().snapshotRestore;
    if (seq === latest() && now) set({ snapshotRestore: { ...now, ...change } });
  };
  try {
    const { snapshot, deleteAdded } = draft;
    const pathPrefix = recordedPrefix(draft, shownRules(get()));
    update({ preview: await call('previewRestore', { projectId, snapshotId: snapshot.snapshotId, pathPrefix, deleteAdded }) });
  } catch (error) {
    update({ previewError: asError(error).toJSON() });
  }
}

/** Every folder holding a file at the snapshot, sorted: what "Restore a folder" offers. */
async function loadFolders(set: SetApp, get: GetApp, snapshotId: number, refreshPreview: () => Promise<void>): Promise<void> {
  const projectId = get().currentProjectId;
  if (!projectId) return;
  const update = (folders: string[]) => {
    const draft = get().snapshotRestore;
    if (draft?.snapshot.snapshotId !== snapshotId) return;
    set({ snapshotRestore: { ...draft, folders } });
    // A folder typed before the list came may be one of them spelled otherwise: ask again with its spelling.
    if (recordedPrefix({ ...draft, folders }, shownRules(get())) !== draft.pathPrefix) void refreshPreview();
  };
  try {
    update(foldersOf(await wholeTree(projectId, snapshotId)));
  } catch {
    // Typing the folder still works.
    update([]);
  }
}

function foldersOf(files: readonly { path: string }[]): string[] {
  const folders = new Set<string>();
  for (const { path } of files) {
    for (let slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) folders.add(path.slice(0, slash));
  }
  return [...folders].sort();
}

/**
 * The folder typed, in the spelling the snapshot records, where the project's folder takes one for
 * the other; as typed where it does not, or before the snapshot's folders are known.
 */
export function recordedPrefix(draft: Pick<SnapshotRestoreDraft, 'pathPrefix' | 'folders'>, rules: NameRules): string {
  const typed = draft.pathPrefix.trim().replace(/\/+$/, '');
  if (!foldsAnything(rules) || draft.folders === null || draft.folders.includes(typed)) return draft.pathPrefix;
  return draft.folders.find((folder) => sameName(folder, typed, rules)) ?? draft.pathPrefix;
}

function restoreTo(projectId: string, snapshotId: number, pathPrefix: string, deleteAdded: boolean) {
  return holdRefresh(() => call('restoreSnapshot', { projectId, snapshotId, pathPrefix, deleteAdded, dryRun: false, operationId: newOperationId('restore') }));
}

async function confirmSnapshotRestore(set: SetApp, get: GetApp): Promise<void> {
  const draft = get().snapshotRestore;
  const projectId = get().currentProjectId;
  if (!draft || !projectId || draft.running || (draft.scope === 'folder' && draft.pathPrefix.trim() === '')) return;
  set({ snapshotRestore: { ...draft, running: true } });
  try {
    const result = await restoreTo(projectId, draft.snapshot.snapshotId, recordedPrefix(draft, shownRules(get())), draft.deleteAdded);
    set({ snapshotRestore: null });
    const where = draft.pathPrefix ? draft.pathPrefix : 'The project';
    // Undone as its Timeline entry undoes it: only the paths it changed go back (restoreUndo.ts).
    const restored = result.snapshotId;
    get().pushToast({
      tone: 'info',
      message: restored === null ? `${where} already matches that snapshot.` : `${where} was restored to ${snapshotName(draft.snapshot)}.`,
      action: restored !== null ? { label: 'Undo', run: () => undoSnapshotRestore(get, projectId, restored) } : undefined,
    });
  } catch (error) {
    set({ snapshotRestore: null });
    get().pushToast({ tone: 'error', message: asError(error).message });
  }
}

function undoSnapshotRestore(get: GetApp, projectId: string, restored: number): void {
  void holdRefresh(() => call('undoRestore', { projectId, snapshotId: restored, dryRun: false, operationId: newOperationId('restore') }))
    .then(() => get().pushToast({ tone: 'info', message: 'Undone: the files are back as they were.' }))
    .catch((error: unknown) => get().pushToast({ tone: 'error', message: `Undo failed: ${asError(error).message}` }));
}
