import { useState } from 'react';
import { chooseBundleSource, chooseFolder, hasNativeDialogs } from '../../api/hindsight.js';
import { Dialog } from '../../components/Dialog.js';
import { useApp } from '../../stores/appStore.js';

// "Import history…": which bundle, and optionally which folder to attach the history to (a
// project that moved). The app picks the bundle with its open dialog (or a typed path); in a
// browser the file is picked here and uploaded to the host. The work runs on a progress card with
// Cancel, so the dialog closes as soon as it starts.

export function ImportHistoryDialog() {
  const open = useApp((s) => s.importDialog);
  if (!open) return null;
  return <ImportHistoryForm />;
}

function ImportHistoryForm() {
  const close = useApp((s) => s.setImportDialog);
  const importHistory = useApp((s) => s.importHistory);
  const native = hasNativeDialogs();
  const [path, setPath] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [as, setAs] = useState('');
  const ready = native ? path.trim() !== '' : file !== null;
  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!ready) return;
    const into = as.trim() || undefined;
    void importHistory(native ? { path: path.trim() } : { file: file! }, into);
  }
  return (
    <Dialog
      title="Import history"
      onClose={() => close(false)}
      footer={
        <>
          <button type="button" className="button" onClick={() => close(false)}>
            Cancel
          </button>
          <button type="submit" form="import-history-form" className="button button-primary" disabled={!ready}>
            Import
          </button>
        </>
      }
    >
      <form id="import-history-form" onSubmit={submit}>
        {native ? (
          <div className="field-row">
            <label className="field">
              <span>Bundle file</span>
              <input type="text" className="input" value={path} placeholder="/home/me/project-history.hsb" onChange={(e) => setPath(e.target.value)} />
            </label>
            <button type="button" className="button" onClick={() => void chooseBundleSource().then((chosen) => chosen && setPath(chosen))}>
              Choose…
            </button>
          </div>
        ) : (
          <label className="field">
            <span>Bundle file</span>
            <input type="file" className="input" accept=".hsb,application/octet-stream" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
          </label>
        )}
        <div className="field-row">
          <label className="field">
            <span>Attach to folder (optional)</span>
            <input type="text" className="input" value={as} placeholder="The folder it was recorded at" onChange={(e) => setAs(e.target.value)} />
          </label>
          {native && (
            <button type="button" className="button" onClick={() => void chooseFolder().then((chosen) => chosen && setAs(chosen))}>
              Choose…
            </button>
          )}
        </div>
        <p className="muted small">
          Every snapshot of the bundle joins that folder&apos;s history; every content is checked against its hash, and nothing is added unless the whole bundle
          is sound. The folder must exist; its files are not touched. Leave it empty for the folder the history was recorded at.
        </p>
      </form>
    </Dialog>
  );
}
