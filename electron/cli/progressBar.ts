import type { Writable } from 'node:stream';
import type { Progress } from '../../shared/progress.js';
import { progressFraction } from '../../shared/progress.js';
import { formatBytes, formatNumber } from './format/words.js';

// A one-line progress bar on stderr, redrawn in place, only when stderr is a terminal. Each line
// says once what is happening ("Verifying", not "verify verify"). The bar never runs backwards:
// while a first copy still walks the folder its total grows, so the fraction can shrink; the bar
// then holds where it was until the work catches up.

const WIDTH = 28;

/** What a person is told is happening, one label per operation and phase. */
export function progressLabel(p: Progress): string {
  if (p.phase === 'done') return DONE[p.operation];
  switch (p.operation) {
    case 'first-copy':
      return p.phase === 'scan' ? 'Scanning' : p.phase === 'commit' ? 'Saving' : 'Copying';
    case 'rescan':
      return 'Checking for changes';
    case 'restore':
      return 'Restoring';
    case 'verify':
      return 'Verifying';
    case 'push':
      return p.phase === 'data' ? 'Pushing data' : p.phase === 'index' ? 'Pushing the index' : p.phase === 'snapshots' ? 'Pushing snapshots' : 'Pushing';
    case 'pull':
    case 'clone': {
      const verb = p.operation === 'pull' ? 'Pulling' : 'Cloning';
      return p.phase === 'metadata' ? `${verb}: reading the remote` : p.phase === 'write' ? `${verb}: writing files` : verb;
    }
    case 'search-index':
      return 'Indexing for search';
    case 'compact':
      return 'Compacting';
    case 'materialize':
      return 'Writing the snapshot';
    case 'export':
      return p.phase === 'index' ? 'Exporting: writing the index' : 'Exporting';
    case 'import':
      return p.phase === 'index' ? 'Importing: reading the index' : 'Importing';
  }
}

const DONE: Record<Progress['operation'], string> = {
  'first-copy': 'Copied',
  rescan: 'Checked',
  restore: 'Restored',
  verify: 'Verified',
  push: 'Pushed',
  pull: 'Pulled',
  clone: 'Cloned',
  'search-index': 'Indexed for search',
  compact: 'Compacted',
  materialize: 'Written',
  export: 'Exported',
  import: 'Imported',
};

/** The text of one progress line; `fraction` is what the bar shows (already kept from running backwards). */
export function progressLine(p: Progress, fraction: number): string {
  const counts = p.bytesTotal > 0 ? `${formatBytes(p.bytesDone)} of ${formatBytes(p.bytesTotal)}` : '';
  const files =
    p.filesTotal > 0 ? `${formatNumber(p.filesDone)} of ${formatNumber(p.filesTotal)} files` : p.filesDone > 0 ? `${formatNumber(p.filesDone)} files` : '';
  const objects = p.objectsTotal ? `${formatNumber(p.objectsDone ?? 0)} of ${formatNumber(p.objectsTotal)} objects` : '';
  const eta = p.etaMs != null && p.phase !== 'done' ? `about ${formatEta(p.etaMs)} left` : '';
  const known = p.filesTotal > 0 || p.bytesTotal > 0 || (p.objectsTotal ?? 0) > 0 || p.phase === 'done';
  const filled = Math.round(fraction * WIDTH);
  const bar = known ? ` [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${String(Math.floor(fraction * 100)).padStart(3)}%` : '';
  return [`${progressLabel(p)}${known ? '' : '…'}${bar}`, files, counts, objects, eta, p.note ?? ''].filter(Boolean).join('  ');
}

export function progressBar(stream: Writable & { isTTY?: boolean; columns?: number }): (progress: Progress) => void {
  if (!stream.isTTY) return () => {};
  let run = '';
  let shown = 0;
  return (p) => {
    // A new operation (or a new project's) starts from zero; within one, the bar only grows.
    const key = `${p.operation}\0${p.projectId}`;
    if (key !== run) {
      run = key;
      shown = 0;
    }
    shown = p.phase === 'done' ? 1 : Math.max(shown, progressFraction(p));
    const line = progressLine(p, shown);
    const width = stream.columns && stream.columns > 1 ? stream.columns - 1 : Infinity;
    stream.write(`\r${line.length > width ? line.slice(0, width) : line}\x1b[K${p.phase === 'done' ? '\n' : ''}`);
    if (p.phase === 'done') run = '';
  };
}

/** A remaining time as a person reads it: seconds under two minutes, else minutes, else hours. */
export function formatEta(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 120 ? `${minutes} min` : `${Math.round(minutes / 60)} h`;
}
