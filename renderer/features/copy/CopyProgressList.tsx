import { useEffect, useState } from 'react';
import { ProgressBar } from '../../components/ProgressBar.js';
import { baseName } from '../../format/fileKind.js';
import { useApp } from '../../stores/appStore.js';
import { copyRate, SHOW_AFTER_MS, type FinishedCopy } from '../../stores/copySlice.js';
import { copyPercent, copyStatus } from './copyText.js';

// One card per folder being copied (or checked for changes, or a snapshot written into a new
// folder, or a history exported or imported), each with its own bar, counts,
// rate, time left and Cancel. The walk shows files found so far (no bar: the total still grows),
// then the bar runs against the known total. Quick reopenings never flash a card: it shows after
// a moment. When a copy is over its card becomes one line saying what was done, until dismissed.

export function CopyProgressList() {
  const ids = useApp((s) => Object.keys(s.copies).join('\n'));
  const finished = useApp((s) => s.finished);
  if (!ids && finished.length === 0) return null;
  return (
    <section className="copies" aria-label="Copies in progress">
      {ids && ids.split('\n').map((id) => <CopyCard key={id} operationId={id} />)}
      {finished.map((f) => (
        <FinishedLine key={f.operationId} finished={f} />
      ))}
    </section>
  );
}

function folderName(path: string): string {
  return baseName(path.replace(/[\\/]+$/, '')) || path;
}

function CopyCard({ operationId }: { operationId: string }) {
  const copy = useApp((s) => s.copies[operationId]);
  const cancel = useApp((s) => s.cancelCopy);
  const visible = useDelayedVisible(copy?.progress?.operation === 'first-copy');
  if (!copy || !visible) return null;
  const name = folderName(copy.path);
  const p = copy.progress;
  const operation = p?.operation ?? copy.operation;
  const firstCopy = p ? p.operation !== 'rescan' : !copy.known;
  const title =
    operation === 'materialize'
      ? `Writing a snapshot into ${name}`
      : operation === 'export'
        ? `Exporting history: ${name}`
        : operation === 'import'
          ? `Importing history: ${name}`
          : firstCopy
            ? `Copying ${name} into its history`
            : `Checking ${name} for changes`;
  const titleId = `copy-title-${operationId}`;
  const status = !p && copy.known ? 'Checking for changes…' : !p && copy.operation ? 'Starting…' : copyStatus(p, copyRate(copy));
  return (
    <article className="copy-card" aria-labelledby={titleId}>
      <div className="copy-head">
        <h2 id={titleId} className="copy-title">
          {title}
        </h2>
        <button type="button" className="button button-small" aria-describedby={titleId} disabled={copy.cancelling} onClick={() => void cancel(operationId)}>
          {copy.cancelling ? 'Cancelling…' : 'Cancel'}
        </button>
      </div>
      <ProgressBar label={title} value={copyPercent(p)} valueText={status} />
      <p className="copy-stats">{status}</p>
      <p className="copy-path muted small">{copy.path}</p>
    </article>
  );
}

function FinishedLine({ finished }: { finished: FinishedCopy }) {
  const dismiss = useApp((s) => s.dismissFinished);
  const name = folderName(finished.path);
  return (
    <div className="copy-done" role="status">
      <span className="copy-done-mark" aria-hidden="true" />
      <p className="copy-done-text">
        <strong>{finished.firstCopy ? `Copied ${name}` : `Checked ${name}`}</strong>: {finished.line}
      </p>
      <button
        type="button"
        className="icon-button"
        aria-label={`Dismiss: ${finished.firstCopy ? 'copied' : 'checked'} ${name}`}
        onClick={() => dismiss(finished.operationId)}
      >
        ×
      </button>
    </div>
  );
}

function useDelayedVisible(immediately: boolean): boolean {
  const [late, setLate] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLate(true), SHOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);
  return immediately || late;
}
