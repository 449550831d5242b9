import { HindsightError } from '../../../shared/errors.js';
import { requireSnapshot } from '../db/requireSnapshot.js';
import type { ProjectStore } from '../project/projectStore.js';

// What undoing a restore at any later time puts back, told from the history alone: the paths that
// restore's snapshot changed (its versions: what it wrote, recreated or deleted), each as the
// snapshot just before it held it (on the restore's own line). Nothing else: files edited since
// that the restore did not touch stay as they are. The viewer's "Undo this restore" on a Timeline
// entry and the CLI's `restore FOLDER --undo SNAPSHOT` ask for this.

export interface UndoScope {
  /** The snapshot just before the restore: what the paths go back to. */
  target: number;
  /** The paths the restore changed. */
  paths: ReadonlySet<string>;
}

export function undoScope(store: ProjectStore, restoreSnapshotId: number): UndoScope {
  const snapshot = requireSnapshot(store.index, restoreSnapshotId);
  if (snapshot.kind !== 'restore') {
    throw new HindsightError('BAD_REQUEST', `Snapshot ${restoreSnapshotId} is not a restore (it is a ${snapshot.kind} snapshot): there is nothing to undo.`, {
      snapshotId: restoreSnapshotId,
      kind: snapshot.kind,
    });
  }
  const target = store.index.snapshotReads.previousSnapshotId(restoreSnapshotId);
  if (target === undefined) {
    throw new HindsightError('SNAPSHOT_NOT_FOUND', `No snapshot comes before restore ${restoreSnapshotId}: there is nothing to put back.`, {
      snapshotId: restoreSnapshotId,
    });
  }
  return { target, paths: new Set(store.index.versions.snapshotChanges(restoreSnapshotId).map((change) => change.path)) };
}
