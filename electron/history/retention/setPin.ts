import type { Pins } from '../../../shared/contract/values.js';
import { HindsightError } from '../../../shared/errors.js';
import type { ProjectStore } from '../project/projectStore.js';
import { requireSnapshot } from '../db/requireSnapshot.js';

// Pinning and unpinning: a snapshot or a version that exists, else a clear error. Pinning twice
// or unpinning what is not pinned changes nothing and is no error. A pin is a row read inside a
// prune's own transaction, so a pin made while a prune runs is either seen by it or made after.

export type PinTarget = { snapshotId: number } | { versionId: number; path?: string };

export function setPin(store: ProjectStore, target: PinTarget, pinned: boolean): Pins {
  if ('snapshotId' in target) {
    requireSnapshot(store.index, target.snapshotId);
    store.index.pinning.setSnapshotPin(target.snapshotId, pinned);
  } else {
    const version = store.index.versions.version(target.versionId);
    if (!version || (target.path !== undefined && version.path !== target.path)) {
      const of = target.path === undefined ? '' : ` of ${target.path}`;
      throw new HindsightError('VERSION_NOT_FOUND', `There is no version ${target.versionId}${of}.`, {
        versionId: target.versionId,
        path: target.path ?? null,
      });
    }
    store.index.pinning.setVersionPin(target.versionId, pinned);
  }
  return store.index.pinning.pins();
}
