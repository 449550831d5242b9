import { Dialog } from '../../components/Dialog.js';
import { formatBytes, formatCount } from '../../format/bytes.js';
import { useApp } from '../../stores/appStore.js';

// A first copy that passed the large-folder settings stopped before copying past them and kept
// nothing (CONFIRM_LARGE_FOLDER): what was found is shown, and the copy goes on only when asked.

export function LargeFolderDialog() {
  const found = useApp((s) => s.largeFolder);
  const confirm = useApp((s) => s.confirmLargeFolder);
  const cancel = useApp((s) => s.cancelLargeFolder);
  if (!found) return null;
  const limits = [
    found.limitFiles !== null ? `${formatCount(found.limitFiles)} files` : null,
    found.limitBytes !== null ? formatBytes(found.limitBytes) : null,
  ].filter(Boolean);
  return (
    <Dialog
      title="Copy this large folder?"
      onClose={cancel}
      initialFocus="footer .button:not(.button-primary)"
      footer={
        <>
          <button type="button" className="button" onClick={cancel}>
            Cancel
          </button>
          <button type="button" className="button button-primary" onClick={() => void confirm()}>
            Copy anyway
          </button>
        </>
      }
    >
      <p>
        <code className="large-folder-path">{found.root}</code> is larger than a first copy starts without asking (more than {limits.join(' or ')}).
      </p>
      <dl className="large-folder-found" aria-label="Found before counting stopped">
        <dt>Files found</dt>
        <dd>at least {formatCount(found.files)}</dd>
        <dt>Size found</dt>
        <dd>at least {formatBytes(found.bytes)}</dd>
      </dl>
      <p className="muted small">
        Counting stopped there and nothing was copied. Copying keeps a second copy of every file in the history store, so it needs about as much free space
        again. A home folder or a whole disk is rarely what you meant: open the project folder inside it instead.
      </p>
    </Dialog>
  );
}
