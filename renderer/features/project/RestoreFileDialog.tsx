import { Dialog } from '../../components/Dialog.js';
import { formatBytes } from '../../format/bytes.js';
import { baseName } from '../../format/fileKind.js';
import { formatExact, formatRelative } from '../../format/time.js';
import { useApp } from '../../stores/appStore.js';

// Confirms a file restore: what will be written, and that what the file holds now is kept.

export function RestoreFileDialog() {
  const target = useApp((s) => s.restoreTarget);
  const restoring = useApp((s) => s.restoring);
  const cancel = useApp((s) => s.cancelRestore);
  const confirm = useApp((s) => s.confirmRestore);
  if (!target) return null;
  const { path, version } = target;
  const deletion = version.hash === null;
  return (
    <Dialog
      title={`Restore ${baseName(path)}?`}
      onClose={cancel}
      footer={
        <>
          <button type="button" className="button" onClick={cancel}>
            Cancel
          </button>
          <button type="button" className="button button-primary" disabled={restoring} onClick={() => void confirm()}>
            Restore
          </button>
        </>
      }
    >
      <p>
        {deletion ? 'This deletes ' : 'This replaces '}
        <strong>{path}</strong>
        {deletion ? ', as it was deleted ' : ' with the version from '}
        {formatRelative(version.at)} ({formatExact(version.at)}){deletion ? '.' : `, ${formatBytes(version.size)}.`}
      </p>
      <p className="muted">What the file holds now is recorded first, so you can undo this.</p>
    </Dialog>
  );
}
