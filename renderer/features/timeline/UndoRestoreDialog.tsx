import { Dialog } from '../../components/Dialog.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { formatExact } from '../../format/time.js';
import { useApp } from '../../stores/appStore.js';
import { Preview } from './RestoreSnapshotDialog.js';
import { snapshotTitle } from './TimelineView.js';

// "Undo this restore" from a restore's Timeline entry, at any later time: the engine's preview of
// what goes back (only the files that restore changed, as they were just before it), then the
// undo. Files changed since that the restore did not touch are not in the preview: they stay.

export function UndoRestoreDialog() {
  const draft = useApp((s) => s.restoreUndo);
  const cancel = useApp((s) => s.cancelRestoreUndo);
  const confirm = useApp((s) => s.confirmRestoreUndo);
  if (!draft) return null;
  const { preview } = draft;
  const nothing = preview !== null && preview.write.length + preview.recreate.length + preview.delete.length === 0;
  return (
    <Dialog
      wide
      title="Undo this restore"
      onClose={cancel}
      initialFocus="footer button:last-child"
      footer={
        <>
          <button type="button" className="button" onClick={cancel}>
            Cancel
          </button>
          <button type="button" className="button button-primary" disabled={!preview || draft.running || nothing} onClick={() => void confirm()}>
            Undo restore
          </button>
        </>
      }
    >
      <p>
        <strong>{snapshotTitle(draft.snapshot)}</strong>, {formatExact(draft.snapshot.at)}. Only the files this restore changed go back to how they were just
        before it; files changed since that it did not touch stay as they are. Everything the undo overwrites is recorded first.
      </p>
      {draft.previewError ? (
        <ErrorNote error={draft.previewError} title="No preview" />
      ) : preview ? (
        nothing ? (
          <p className="muted">Those files are already as they were before the restore: nothing to undo.</p>
        ) : (
          <Preview preview={preview} deleteAdded addedSince="the restore made" />
        )
      ) : (
        <p className="loading">Preparing the preview…</p>
      )}
    </Dialog>
  );
}
