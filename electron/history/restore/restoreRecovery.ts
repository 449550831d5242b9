import type { RecoveredRestore } from '../../../shared/history.js';
import type { HistoryIndex } from '../db/historyIndex.js';
import { changedSince, rollBack } from './restoreRollback.js';
import type { KilledRestore, RestoreTemps } from '../project/restoreTemps.js';
import type { BlobStore } from '../store/blobStore.js';

// A snapshot restore killed midway, as the next writer finds its journal (before its catch-up, so
// the catch-up records the folder as it ends): recorded already (its snapshot committed, only the
// journal left), it is complete; else each step it took is put back, so the folder is as it was
// before the restore. Either way a path changed by someone since the kill is left alone and named.

export type { RecoveredRestore };

export function recoverRestore(store: { root: string; blobs: BlobStore; index: HistoryIndex }, killed: KilledRestore, temps: RestoreTemps): RecoveredRestore {
  const latest = store.index.snapshotReads.latestSnapshotId() ?? null;
  const recorded = latest !== null && latest !== killed.latestBefore && store.index.snapshotReads.snapshot(latest)?.kind === 'restore';
  if (recorded) {
    return {
      outcome: 'completed',
      putBack: [],
      leftAlone: changedSince(store.root, killed.steps).map((path) => ({ path, reason: 'changed since the restore' })),
    };
  }
  return { outcome: 'rolled-back', ...rollBack(store.root, store.blobs, killed.steps, temps) };
}
