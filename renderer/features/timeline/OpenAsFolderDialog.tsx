import { useState } from 'react';
import { chooseFolder, hasNativeDialogs } from '../../api/hindsight.js';
import { Dialog } from '../../components/Dialog.js';
import { useApp } from '../../stores/appStore.js';
import { snapshotName } from '../../format/snapshotName.js';

// "Open as a new folder…": where to write the selected snapshot (a new folder, or an empty one).
// The app offers its folder dialog; the browser host takes a typed path. The work runs on a
// progress card with Cancel, so the dialog closes as soon as it starts.

export function OpenAsFolderDialog() {
  const open = useApp((s) => s.openAsFolderDialog);
  if (!open) return null;
  return <OpenAsFolderForm />;
}

function OpenAsFolderForm() {
  const close = useApp((s) => s.setOpenAsFolderDialog);
  const write = useApp((s) => s.openSnapshotAsFolder);
  const snapshot = useApp((s) => s.snapshots.find((x) => x.snapshotId === s.selectedSnapshotId));
  const [into, setInto] = useState('');
  async function choose() {
    const folder = await chooseFolder();
    if (folder) setInto(folder);
  }
  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (into.trim()) void write(into.trim());
  }
  return (
    <Dialog
      title={`Open ${snapshotName(snapshot)} as a new folder`}
      onClose={() => close(false)}
      footer={
        <>
          <button type="button" className="button" onClick={() => close(false)}>
            Cancel
          </button>
          <button type="submit" form="open-as-folder-form" className="button button-primary" disabled={!into.trim()}>
            Write the folder
          </button>
        </>
      }
    >
      <form id="open-as-folder-form" onSubmit={submit}>
        <label className="field">
          <span>New folder</span>
          <input type="text" className="input" value={into} placeholder="/home/me/project-as-it-was" onChange={(e) => setInto(e.target.value)} />
        </label>
        {hasNativeDialogs() && (
          <button type="button" className="button" onClick={() => void choose()}>
            Choose…
          </button>
        )}
        <p className="muted small">
          Every file of the snapshot, with its permissions and links, goes into this folder. It must be new or empty; the project itself is not touched.
        </p>
      </form>
    </Dialog>
  );
}
