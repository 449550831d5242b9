import type { StoreDensity } from '../../../shared/contract/values.js';
import { COMPRESS_RANGE } from '../compact/compactStore.js';
import type { ProjectStore } from '../project/projectStore.js';

// What compression saves in one store, and what it buys within the budget.
//
// How many versions the budget holds is an estimate from the history as it is: each version of a
// file costs on average what the store's blobs cost per version that names bytes (stored bytes /
// versions on disk, against raw bytes / the same versions), so the budget holds about
// budget / (stored bytes per version) versions, against budget / (raw bytes per version)
// uncompressed. The two differ by the compression ratio alone: content addressing (a version
// naming bytes already stored) helps both the same. A history with no versions yet has no
// estimate (0).

export function storeDensity(store: ProjectStore, budget: number | null): StoreDensity {
  const blobs = store.index.blobRecords.blobTotals();
  const { versionsWithBytes } = store.index.blobRecords.historyTotals();
  const compactable = store.index.compaction.compactTotals(COMPRESS_RANGE);
  return {
    rawBytes: blobs.bytes,
    storedBytes: blobs.storedBytes,
    savedBytes: blobs.bytes - blobs.storedBytes,
    ratio: blobs.bytes === 0 ? 1 : blobs.storedBytes / blobs.bytes,
    blobsCompressed: blobs.compressed,
    blobsRaw: blobs.raw,
    blobsUnmeasured: blobs.unknown,
    compactable: compactable.blobs,
    compactableBytes: compactable.bytes,
    budget,
    versionsInBudget: budget === null ? null : versionsWithin(budget, blobs.storedBytes, versionsWithBytes),
    versionsInBudgetUncompressed: budget === null ? null : versionsWithin(budget, blobs.bytes, versionsWithBytes),
  };
}

/** Versions of `bytes / versions` bytes each that fit in `budget`. */
function versionsWithin(budget: number, bytes: number, versions: number): number {
  if (versions === 0 || bytes === 0) return 0;
  return Math.floor(budget / (bytes / versions));
}
