import { useState } from 'react';
import { Dialog } from '../../components/Dialog.js';
import { useApp } from '../../stores/appStore.js';

// A named snapshot of the project as it is now, e.g. before a risky change.

export function CheckpointDialog() {
  const open = useApp((s) => s.checkpointDialog);
  if (!open) return null;
  return <CheckpointForm />;
}

function CheckpointForm() {
  const close = useApp((s) => s.setCheckpointDialog);
  const create = useApp((s) => s.createCheckpoint);
  const [label, setLabel] = useState('');
  const [busy, setBusy] = useState(false);
  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!label.trim() || busy) return;
    setBusy(true);
    if (!(await create(label.trim()))) setBusy(false);
  }
  return (
    <Dialog
      title="Checkpoint"
      onClose={() => close(false)}
      footer={
        <>
          <button type="button" className="button" onClick={() => close(false)}>
            Cancel
          </button>
          <button type="submit" form="checkpoint-form" className="button button-primary" disabled={!label.trim() || busy}>
            Save checkpoint
          </button>
        </>
      }
    >
      <form id="checkpoint-form" onSubmit={(e) => void submit(e)}>
        <label className="field">
          <span>Label</span>
          <input type="text" className="input" value={label} maxLength={200} placeholder="Before the big refactor" onChange={(e) => setLabel(e.target.value)} />
        </label>
        <p className="muted small">Saves every file as it is now under this name, in the timeline.</p>
      </form>
    </Dialog>
  );
}
