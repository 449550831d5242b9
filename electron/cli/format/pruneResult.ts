import type { Writable } from 'node:stream';
import type { PruneDecision, PruneResult } from '../../../shared/contract/values.js';
import { writeTable } from './table.js';
import { countOf, formatBytes, formatLocalTime } from './words.js';

// A prune's answer in words: what went (or would go), why the rest stays, the budget, and with
// --dry-run every snapshot kept or removed and why.

const WHY: Record<PruneDecision['why'], string> = {
  newest: 'newest (or last copy of a deleted file)',
  pinned: 'pinned',
  otherMachines: "history holds another machine's snapshots",
  uncommitted: 'holds work git does not have',
  policy: 'retention policy',
  thinned: 'thinned by the policy',
  budget: 'over the budget',
};

export function printPrune(out: Writable, r: PruneResult): void {
  if (r.decisions) {
    writeTable(
      out,
      [
        { header: 'SNAPSHOT', value: (d: PruneDecision) => String(d.snapshotId), align: 'right' },
        { header: 'TIME', value: (d) => formatLocalTime(d.at) },
        { header: 'KIND', value: (d) => d.kind },
        { header: 'DECISION', value: (d) => (d.kept ? 'keep' : 'remove') },
        { header: 'WHY', value: (d) => WHY[d.why] + (d.label ? ` · ${d.label}` : '') },
      ],
      r.decisions,
    );
  }
  if (r.archive) printArchive(out, r);
  const verb = r.dryRun ? 'Would remove' : 'Removed';
  out.write(
    `${verb} ${countOf(r.snapshots, 'snapshot')} and ${countOf(r.versions, 'version')}; ${countOf(r.blobs, 'stored copy', 'stored copies')} (${formatBytes(r.bytesFreed)}) no longer needed.\n`,
  );
  const k = r.keptBecause;
  out.write(`Kept: ${k.newest} newest, ${k.pinned} pinned, ${k.uncommitted} with work git does not have, ${k.policy} by the policy.\n`);
  if (k.otherMachines > 0) out.write(`Kept: ${k.otherMachines} more: this history holds snapshots pulled from another machine, and is not thinned.\n`);
  if (r.budget !== null) {
    out.write(`History: ${formatBytes(r.keptBytes)} of a ${formatBytes(r.budget)} budget.\n`);
    if (!r.budgetMet) out.write('The budget cannot be met without removing newest, pinned or uncommitted versions; those were kept.\n');
  }
  if (!r.dryRun && (r.deletedBlobs > 0 || r.waitingBlobs > 0)) {
    out.write(
      `Deleted ${countOf(r.deletedBlobs, 'file')} (${formatBytes(r.deletedBytes)}); ${countOf(r.waitingBlobs, 'file')} (${formatBytes(r.waitingBytes)}) go after the grace period.\n`,
    );
  }
}

function printArchive(out: Writable, r: PruneResult): void {
  const a = r.archive!;
  if (r.dryRun)
    out.write(
      `Would move ${countOf(a.blobs, 'stored copy', 'stored copies')} (${formatBytes(a.bytes)}) of thinned versions to ${a.remote}; every version stays listed.\n`,
    );
  else if (a.error) out.write(`${a.error}\n`);
  else
    out.write(
      `Moved ${countOf(a.movedBlobs, 'stored copy', 'stored copies')} (${formatBytes(a.movedBytes)}) of thinned versions to ${a.remote}; they are fetched from there when read.\n`,
    );
}
