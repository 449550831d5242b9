import { progressFraction, type Progress } from '../../../shared/progress.js';
import { formatBytes, formatCount, plural } from '../../format/bytes.js';
import { formatDuration } from '../../format/time.js';

// What a copy card says and how full its bar is, phase by phase. The walk is its own phase (files
// found so far, no bar: the total still grows); the bar appears once the total is known. A known
// project's rescan says "Checking for changes…" until it knows what changed, never "0 of 0".

/** The bar's percent, or null while it cannot be known (walking, checking). */
export function copyPercent(p: Progress | null): number | null {
  if (!p) return null;
  if (p.phase === 'scan' || p.phase === 'rescan') return null;
  if (p.phase === 'done') return 100;
  if (p.phase === 'commit') return p.operation === 'rescan' ? null : 100;
  // A rescan's 'copy' with nothing changed has no total: it is still checking.
  if (p.filesTotal === 0 && p.bytesTotal === 0) return null;
  return progressFraction(p) * 100;
}

/** One line of counts for the card; `rate` in bytes per second when known. */
export function copyStatus(p: Progress | null, rate: number | null): string {
  if (!p) return 'Looking at the folder…';
  if (p.operation === 'rescan') return rescanStatus(p);
  if (p.operation === 'export' || p.operation === 'import') return bundleStatus(p, rate);
  if (p.phase === 'scan') {
    const found = `Looking for files: ${plural(p.filesTotal, 'file')} found so far`;
    return p.filesDone > 0 ? `${found} (${formatCount(p.filesDone)} copied)` : `${found}…`;
  }
  if (p.phase === 'commit') return `Saving the first copy of ${plural(p.filesTotal, 'file')}…`;
  if (p.phase === 'done') return `${plural(p.filesDone, 'file')} copied`;
  const parts = [`${formatCount(p.filesDone)} of ${plural(p.filesTotal, 'file')}`, `${formatBytes(p.bytesDone)} of ${formatBytes(p.bytesTotal)}`];
  if (rate !== null && rate > 0) {
    parts.push(`${formatBytes(rate)}/s`);
    const left = (p.bytesTotal - p.bytesDone) / rate;
    parts.push(left < 1 ? 'almost done' : `about ${formatDuration(left)} left`);
  }
  return parts.join(' · ');
}

/**
 * A history bundle on its way: the upload (browser host), the snapshot rows, then the contents
 * in bytes, with the rate and the time left the engine estimates for the phase.
 */
function bundleStatus(p: Progress, rate: number | null): string {
  if (p.phase === 'done') return p.operation === 'export' ? 'Exported' : 'Imported';
  if (p.phase === 'index')
    return `${p.operation === 'export' ? 'Writing' : 'Reading'} the index: ${formatCount(p.filesDone)} of ${plural(p.filesTotal, 'snapshot')}`;
  const verb = p.phase === 'upload' ? 'Uploading' : p.operation === 'export' ? 'Writing contents' : 'Checking and storing contents';
  const parts = [`${verb}: ${formatBytes(p.bytesDone)} of ${formatBytes(p.bytesTotal)}`];
  if (p.phase === 'data' && p.filesTotal > 0) parts.push(`${formatCount(p.filesDone)} of ${plural(p.filesTotal, 'content')}`);
  if (p.phase === 'data' && rate !== null && rate > 0) parts.push(`${formatBytes(rate)}/s`);
  if (p.etaMs !== undefined && p.etaMs !== null) parts.push(p.etaMs < 1000 ? 'almost done' : `about ${formatDuration(p.etaMs / 1000)} left`);
  return parts.join(' · ');
}

function rescanStatus(p: Progress): string {
  if (p.phase === 'done') return 'Checked';
  // The files read are the ones whose stamps moved (or are too recent to trust), not all changed.
  if (p.phase === 'copy' && p.filesTotal > 0) return `Checking for changes: reading ${formatCount(p.filesDone)} of ${plural(p.filesTotal, 'file')}`;
  return 'Checking for changes…';
}
