import { useEffect, useState } from 'react';
import { ProgressBar } from '../../components/ProgressBar.js';
import { formatBytes, formatCount } from '../../format/bytes.js';
import { baseName } from '../../format/fileKind.js';
import { formatDuration } from '../../format/time.js';
import { progressFraction } from '../../../shared/progress.js';
import { useApp } from '../../stores/appStore.js';
import { copyRate, type CopyState } from '../../stores/copySlice.js';

// One card per folder being copied (or checked for changes), each with its own bar, counts,
// rate, time left and Cancel. Quick reopenings never flash a card: it shows after a moment.

const SHOW_AFTER_MS = 300;

export function CopyProgressList() {
  const ids = useApp((s) => Object.keys(s.copies).join('\n'));
  if (!ids) return null;
  return (
    <section className="copies" aria-label="Copies in progress">
      {ids.split('\n').map((id) => (
        <CopyCard key={id} operationId={id} />
      ))}
    </section>
  );
}

function CopyCard({ operationId }: { operationId: string }) {
  const copy = useApp((s) => s.copies[operationId]);
  const cancel = useApp((s) => s.cancelCopy);
  const visible = useDelayedVisible(copy?.progress?.operation === 'first-copy');
  if (!copy || !visible) return null;
  const name = baseName(copy.path.replace(/[\\/]+$/, '')) || copy.path;
  const p = copy.progress;
  const title =
    p?.operation === 'materialize' ? `Writing a snapshot into ${name}` : p?.operation === 'rescan' ? `Checking ${name} for changes` : `Copying ${name} into its history`;
  const titleId = `copy-title-${operationId}`;
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
      <ProgressBar label={title} value={p && p.phase !== 'scan' ? progressFraction(p) * 100 : null} valueText={p ? describe(copy) : 'Starting'} />
      <p className="copy-stats">{p ? describe(copy) : 'Looking at the folder…'}</p>
      <p className="copy-path muted small">{copy.path}</p>
    </article>
  );
}

function describe(copy: CopyState): string {
  const p = copy.progress;
  if (!p) return '';
  if (p.phase === 'scan') return `Found ${formatCount(p.filesTotal || p.filesDone)} files…`;
  if (p.phase === 'commit') return 'Saving the baseline…';
  const parts = [`${formatCount(p.filesDone)} of ${formatCount(p.filesTotal)} files`, `${formatBytes(p.bytesDone)} of ${formatBytes(p.bytesTotal)}`];
  const rate = copyRate(copy);
  if (rate !== null && rate > 0) {
    parts.push(`${formatBytes(rate)}/s`);
    const left = (p.bytesTotal - p.bytesDone) / rate;
    parts.push(left < 1 ? 'almost done' : `about ${formatDuration(left)} left`);
  }
  return parts.join(' · ');
}

function useDelayedVisible(immediately: boolean): boolean {
  const [late, setLate] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLate(true), SHOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);
  return immediately || late;
}
