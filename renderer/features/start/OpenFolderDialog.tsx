import { useCallback, useState } from 'react';
import { hasNativeDialogs } from '../../api/hindsight.js';
import { Dialog } from '../../components/Dialog.js';
import { useApp } from '../../stores/appStore.js';
import { FolderPicker } from './FolderPicker.js';

// The browser host's stand-in for the native folder picker: browse the user's own folders
// (FolderPicker.tsx), or type (or paste) a path. The same dialog finds a moved project's folder
// (Locate…): then its history moves there instead of a new project being opened.

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
  const locateFor = useApp((s) => s.projects.find((p) => p.projectId === s.locateFor) ?? null);
  const locateProject = useApp((s) => s.locateProject);
  const [path, setPath] = useState('');
  const [busy, setBusy] = useState(false);
  const browsing = !hasNativeDialogs();
  const showFolder = useCallback((shown: string, first: boolean) => setPath((typed) => (first && typed !== '' ? typed : shown)), []);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!path.trim() || busy) return;
    setBusy(true);
    const ok = locateFor ? await locateProject(locateFor.projectId, path.trim()) : await openFolder(path.trim());
    if (!ok) setBusy(false);
  }

  return (
    <Dialog
      title={locateFor ? `Locate ${locateFor.name}` : 'Open folder'}
      onClose={() => close(false)}
      wide={browsing}
      initialFocus={browsing ? '.folder-browser-list' : undefined}
      footer={
        <>
          <button type="button" className="button" onClick={() => close(false)}>
            Cancel
          </button>
          <button type="submit" form="open-folder-form" className="button button-primary" disabled={!path.trim() || busy}>
            {locateFor ? 'Locate' : 'Open'}
          </button>
        </>
      }
    >
      <form id="open-folder-form" onSubmit={(e) => void submit(e)}>
        {hint && <p className="muted">{hint}</p>}
        {locateFor && (
          <p className="muted">
            Where is the folder that was at <code>{locateFor.root}</code> now? Its history follows it when it is the same folder, moved or renamed.
          </p>
        )}
        {browsing && <FolderPicker onShow={showFolder} />}
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
        {!locateFor && <p className="muted small">Hindsight copies every file into its history store once. Nothing is written inside the folder.</p>}
      </form>
    </Dialog>
  );
}
