import { SNAPSHOT_EFFECT_PATHS, type SnapshotEffect } from '../../../shared/history.js';
import type { SnapshotWrite } from './commitSnapshot.js';

// What a snapshot of this machine's line changed, told with its event (shared/history.ts
// SnapshotEffect): read off the write itself, no query. Another machine's snapshot (a clone, a
// pull) changes no folder this machine shows, but the view then reads everything again, as
// before: it carries none.

export function snapshotEffect({ snapshot, versions, pin }: SnapshotWrite): SnapshotEffect | undefined {
  if (snapshot.machine !== undefined) return undefined;
  const paths = versions.length > SNAPSHOT_EFFECT_PATHS ? null : [...new Set(versions.map((v) => v.path))].sort();
  return { paths, removed: versions.some((v) => v.hash === null), pinned: pin === true };
}
