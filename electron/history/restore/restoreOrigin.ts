import type { ProjectStore } from '../project/projectStore.js';

// Whether a restore is the undo of the restore before it: it brings back exactly what the latest
// restore replaced, and nothing changed on disk since (the capture before it recorded nothing).
// Told from the history, so an undo is an undo whether the viewer's Undo or the CLI asked for it.

/** Restoring `versionId` of `path` undoes the latest restore of that file (asked before the capture). */
export function undoesFileRestore(store: ProjectStore, path: string, versionId: number): boolean {
  const latest = store.index.versions.latestVersion(path);
  if (!latest || latest.origin.kind !== 'restore') return false;
  return store.index.versions.versionBefore(path, latest.snapshotId)?.versionId === versionId;
}

/** Restoring `snapshotId` undoes the latest snapshot when it is a restore (asked before the capture). */
export function undoesSnapshotRestore(store: ProjectStore, snapshotId: number): boolean {
  const latestId = store.index.snapshotReads.latestSnapshotId();
  if (latestId === undefined) return false;
  const latest = store.index.snapshotReads.snapshot(latestId);
  if (!latest || latest.origin.kind !== 'restore') return false;
  return store.index.snapshotReads.previousSnapshotId(latestId) === snapshotId;
}
