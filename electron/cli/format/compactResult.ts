import type { Writable } from 'node:stream';
import type { CompactResult } from '../../../shared/contract/values.js';
import { countOf, formatBytes, formatDuration } from './words.js';

// A compaction's answer in words: what was (or, with --dry-run, would be) converted and saved, and
// what was left as it is and why.

export function printCompact(out: Writable, r: CompactResult): void {
  if (r.candidates === 0) {
    out.write('Nothing to compact: every blob is already in its smallest form.\n');
    return;
  }
  const converted = `${countOf(r.converted, 'blob')} (${formatBytes(r.rawBytes)} as the files are, ${formatBytes(r.storedBytes)} compressed)`;
  out.write(
    r.dryRun
      ? `Would compress ${converted}, saving ${formatBytes(r.savedBytes)}; looked at ${countOf(r.looked, 'raw blob')} of ${formatBytes(r.candidateBytes)}.\n`
      : `Compressed ${converted}, saving ${formatBytes(r.savedBytes)}, in ${formatDuration(r.ms)}.\n`,
  );
  const left: string[] = [];
  if (r.keptRaw > 0) left.push(`${countOf(r.keptRaw, 'blob')} stay raw (compressing would save too little)`);
  if (r.alreadyCompressed > 0) left.push(`${countOf(r.alreadyCompressed, 'blob')} already compressed`);
  if (r.absent > 0) left.push(`${countOf(r.absent, 'blob')} not on this disk`);
  if (r.damaged > 0) left.push(`${countOf(r.damaged, 'blob')} damaged (run verify --repair)`);
  if (left.length > 0) out.write(`${left.join('; ')}.\n`);
  if (r.stopped) out.write(`Stopped after ${countOf(r.looked, 'blob')} of ${formatBytes(r.candidateBytes)}; run compact again to go on.\n`);
}
