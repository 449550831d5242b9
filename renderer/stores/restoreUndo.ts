import { asError, call, newOperationId } from '../api/hindsight.js';
import type { GetApp, SetApp } from './appState.js';
import { holdRefresh } from './refresh.js';
import type { RestoreUndoDraft, TimelineSlice } from './timelineSlice.js';

// "Undo this restore" on a Timeline entry of a restore, at any later time (after a reload too):
// the engine says what it would put back (the paths that restore changed, as the snapshot just
// before it held them: the undoRestore call's dry run), the usual preview shows it, and the undo
// runs under holdRefresh like every write of this window.

type Undo = Pick<TimelineSlice, 'beginRestoreUndo' | 'cancelRestoreUndo' | 'confirmRestoreUndo'>;

export function restoreUndoActions(set: SetApp, get: GetApp): Undo {
  return {
    beginRestoreUndo: () => void beginRestoreUndo(set, get),
    cancelRestoreUndo: () => set({ restoreUndo: null }),
    confirmRestoreUndo: () => confirmRestoreUndo(set, get),
  };
}

async function beginRestoreUndo(set: SetApp, get: GetApp): Promise<void> {
  const snapshot = get().snapshots.find((s) => s.snapshotId === get().selectedSnapshotId);
  const projectId = get().currentProjectId;
  if (!snapshot || snapshot.kind !== 'restore' || !projectId) return;
  set({ restoreUndo: { snapshot, preview: null, previewError: null, running: false } });
  const update = (change: Partial<RestoreUndoDraft>) => {
    const now = get().restoreUndo;
    if (now?.snapshot.snapshotId === snapshot.snapshotId) set({ restoreUndo: { ...now, ...change } });
  };
  try {
    const result = await call('undoRestore', { projectId, snapshotId: snapshot.snapshotId, dryRun: true });
    update({ preview: result.preview });
  } catch (error) {
    update({ previewError: asError(error).toJSON() });
  }
}

async function confirmRestoreUndo(set: SetApp, get: GetApp): Promise<void> {
  const draft = get().restoreUndo;
  const projectId = get().currentProjectId;
  if (!draft || !projectId || draft.running || !draft.preview) return;
  set({ restoreUndo: { ...draft, running: true } });
  try {
    const result = await holdRefresh(() =>
      call('undoRestore', { projectId, snapshotId: draft.snapshot.snapshotId, dryRun: false, operationId: newOperationId('restore') }),
    );
    set({ restoreUndo: null });
    const files = result.written + result.recreated + result.deleted;
    get().pushToast({
      tone: 'info',
      message:
        result.snapshotId === null
          ? 'Nothing to undo: those files are already as they were.'
          : `Undone: ${files === 1 ? '1 file is' : `${files} files are`} back as before the restore.`,
    });
  } catch (error) {
    set({ restoreUndo: null });
    get().pushToast({ tone: 'error', message: `Undo failed: ${asError(error).message}` });
  }
}
