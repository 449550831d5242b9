import type { Writable } from 'node:stream';
import type { StoreStats } from '../../../shared/contract/values.js';
import { countOf, formatBytes, formatNumber } from './words.js';

// `stats` in words: the history's size as the files are and on disk (everything, as du counts it,
// and the blobs' own bytes), what compression and content addressing save, the blobs by form, and
// what the budget holds.

export function printStoreStats(out: Writable, s: StoreStats): void {
  const d = s.density;
  const lines = [
    `${countOf(s.snapshots, 'snapshot')}, ${countOf(s.versions, 'version')}, ${countOf(s.blobs, 'distinct content', 'distinct contents')}`,
    `As the files are:  ${formatBytes(d.rawBytes)} (every version apart: ${formatBytes(s.logicalBytes)})`,
    `On disk:           ${formatBytes(s.disk.totalBytes)} (${onDisk(s.disk)})`,
    `Blobs stored:      ${formatBytes(d.storedBytes)} (${percent(d.ratio)} of the files' bytes)`,
    `Saved:             ${formatBytes(d.savedBytes)} by compression, ${formatBytes(s.dedupeSavedBytes)} by storing equal contents once`,
    `Blobs:             ${formatNumber(d.blobsCompressed)} compressed, ${formatNumber(d.blobsRaw)} raw${d.blobsUnmeasured > 0 ? `, ${formatNumber(d.blobsUnmeasured)} not measured yet` : ''}`,
  ];
  if (d.compactable > 0) lines.push(`To compact:        ${countOf(d.compactable, 'raw blob')} (${formatBytes(d.compactableBytes)}): run hindsight compact`);
  lines.push(
    d.budget === null
      ? 'Budget:            none'
      : `Budget:            ${formatBytes(d.budget)} holds about ${countOf(d.versionsInBudget ?? 0, 'version')} at this density (${formatNumber(d.versionsInBudgetUncompressed ?? 0)} uncompressed)`,
  );
  out.write(`${lines.join('\n')}\n`);
}

/** The parts of the total on disk: what `du` of the store folder would add up. */
function onDisk(disk: StoreStats['disk']): string {
  const parts = [
    `blobs ${formatBytes(disk.blobBytes)} in ${countOf(disk.blobFiles, 'file')}`,
    `index ${formatBytes(disk.indexBytes)}, search ${formatBytes(disk.searchIndexBytes)} of it`,
    `backup ${formatBytes(disk.backupBytes)}`,
  ];
  if (disk.tempBytes > 0) parts.push(`temps ${formatBytes(disk.tempBytes)}`);
  parts.push(`other ${formatBytes(disk.otherBytes)}`);
  return parts.join('; ');
}

function percent(ratio: number): string {
  return `${Math.round(ratio * 1000) / 10}%`;
}
