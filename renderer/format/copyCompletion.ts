import type { OpenResult } from '../../shared/contract.js';
import { formatBytes, plural } from './bytes.js';
import { formatDuration } from './time.js';

// The line a copy card keeps once the copy is over, made where the copy's state lives
// (stores/copySlice.ts) and shown by the copy screen.

/** What stays when a copy is over: "4,846 files in 1.3 s, 46 MB; 3 paths left out by ignore rules (`hindsight ignored` lists them)". */
export function completionLine(result: Pick<OpenResult, 'files' | 'bytes' | 'ms' | 'firstCopy'> & Partial<Pick<OpenResult, 'ignored'>>): string {
  const took = `${plural(result.files, 'file')} in ${seconds(result.ms)}, ${formatBytes(result.bytes)}`;
  if (!result.firstCopy) return `Up to date: ${took}`;
  return result.ignored ? `${took}; ${plural(result.ignored, 'path')} left out by ignore rules (\`hindsight ignored\` lists them)` : took;
}

function seconds(ms: number): string {
  return ms < 1000 ? `${(ms / 1000).toFixed(2)} s` : ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : formatDuration(ms / 1000);
}
