import type { RestorePreview, RestoreSnapshotResult } from '../../../shared/contract.js';
import type { ProjectStore } from '../project/projectStore.js';
import type { RestoreOutcome } from './restoreSnapshot.js';

// A snapshot restore as the contract answers it (RestoreSnapshotResult), one shape for a dry run
// and a real restore: a dry run carries the preview and counts what it would do, a restore the
// snapshots it recorded and the counts of what it did. `ms` runs from the call's start, fetching
// bytes only a remote held included.

/** What a dry run answers: the plan, counted as the restore would count it. */
export function previewedRestore(preview: RestorePreview, snapshotId: number, started: number): RestoreSnapshotResult {
  return {
    dryRun: true,
    preview,
    snapshotId: null,
    undoSnapshotId: null,
    targetSnapshotId: snapshotId,
    capturedSnapshotId: null,
    checkpointId: null,
    written: preview.write.length,
    recreated: preview.recreate.length,
    deleted: preview.delete.length,
    unchanged: preview.unchanged,
    kept: preview.added.length - preview.delete.length,
    specialModesDropped: preview.specialModesDropped,
    steps: preview.steps,
    ...(preview.skipped ? { skipped: preview.skipped } : {}),
    ms: Math.round(performance.now() - started),
  };
}

/** What a restore answers: its outcome and the capture of the disk recorded before it. */
export function restoredSnapshot(
  outcome: RestoreOutcome & { capture: { snapshotId: number | undefined; checkpointId: number | undefined } },
  started: number,
): RestoreSnapshotResult {
  return {
    dryRun: false,
    preview: null,
    snapshotId: outcome.snapshotId ?? null,
    undoSnapshotId: outcome.undoSnapshotId ?? null,
    targetSnapshotId: outcome.targetSnapshotId,
    capturedSnapshotId: outcome.capture.snapshotId ?? null,
    checkpointId: outcome.capture.checkpointId ?? null,
    written: outcome.written,
    recreated: outcome.recreated,
    deleted: outcome.deleted,
    unchanged: outcome.unchanged,
    kept: outcome.kept,
    specialModesDropped: outcome.specialModesDropped,
    steps: outcome.steps,
    ...(outcome.skipped.length > 0 ? { skipped: outcome.skipped } : {}),
    ms: Math.round(performance.now() - started),
  };
}

/** The blobs a restore of a snapshot (or of the folder or file `prefix` of it) writes; none for an unknown snapshot. */
export function restoredBlobs(store: ProjectStore, snapshotId: number, prefix: string | undefined): string[] {
  if (!store.index.snapshotReads.snapshot(snapshotId)) return [];
  const under = prefix ? prefix.replace(/\/+$/, '') : '';
  return store.index.files
    .filesAt(snapshotId)
    .filter((f) => !under || f.path === under || f.path.startsWith(`${under}/`))
    .map((f) => f.hash);
}
