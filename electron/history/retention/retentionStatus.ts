import type { RetentionStatus } from '../../../shared/contract/values.js';
import type { RetentionPolicy } from '../../../shared/retention.js';
import type { ProjectStore } from '../project/projectStore.js';

// What the Store tab shows of a history against its budget: every byte on disk (blobs waiting for
// their grace period included: they are still on disk; a compressed blob counted as its
// compressed file, as the budget counts it), the policy, the pins, and the files whose versions
// hold the most bytes (a blob counted once per file).

export function retentionStatus(store: ProjectStore, policy: RetentionPolicy, budget: number | null, holders: number): RetentionStatus {
  return {
    projectId: store.projectId,
    usedBytes: store.index.blobRecords.blobTotals().storedBytes,
    waitingBytes: store.index.prune.markedBlobs().bytes,
    budget,
    policy,
    spaceHolders: store.index.prune.spaceHolders(holders),
    pins: store.index.pinning.pins(),
  };
}
