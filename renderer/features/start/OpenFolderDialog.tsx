import { useState } from 'react';
import { Dialog } from '../../components/Dialog.js';
import { useApp } from '../../stores/appStore.js';

// The browser host's stand-in for the native folder picker: type (or paste) a path.

export function OpenFolderDialog() {
  const visible = useApp((s) => s.openDialogVisible);
  if (!visible) return null;
  return <OpenFolderForm />;
}

function OpenFolderForm() {
  const close = useApp((s) => s.setOpenDialog);
  const openFolder = useApp((s) => s.openFolder);
  const error = useApp((s) => s.openError);
  const hint = useApp((s) => s.openHint);
  const [path, setPath] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!path.trim() || busy) return;
    setBusy(true);
    const ok = await openFolder(path.trim());
    if (!ok) setBusy(false);
  }

  return (
    <Dialog
      title="Open folder"
      onClose={() => close(false)}
      footer={
        <>
          <button type="button" className="button" onClick={() => close(false)}>
            Cancel
          </button>
          <button type="submit" form="open-folder-form" className="button button-primary" disabled={!path.trim() || busy}>
            Open
          </button>
        </>
      }
    >
      <form id="open-folder-form" onSubmit={(e) => void submit(e)}>
        {hint && <p className="muted">{hint}</p>}
        <label className="field">
          <span>Folder path</span>
          <input
            type="text"
            className="input"
            value={path}
            spellCheck={false}
            autoComplete="off"
            placeholder="/home/you/projects/site"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'open-folder-error' : undefined}
            onChange={(e) => setPath(e.target.value)}
          />
        </label>
        {error && (
          <p id="open-folder-error" className="field-error" role="alert">
            {error}
          </p>
        )}
        <p className="muted small">Hindsight copies every file into its history store once. Nothing is written inside the folder.</p>
      </form>
    </Dialog>
  );
}
