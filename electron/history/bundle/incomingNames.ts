import { nameCollisions, rulesInside } from '../restore/nameCollisions.js';
import type { BundleSnapshot } from './bundleFormat.js';

// A history brought in from a machine whose folder tells `Notes.txt` from `notes.txt` may hold
// both. Into a folder that folds case or normalization it imports whole (every version stays
// browsable), but a restore there would put the two on one file: the groups are found before
// anything is written and told then (and in the import's answer), so the user knows to restore
// them --into a folder that tells them apart, or one of each group on its own.

/** The groups of the incoming history's paths that are one name in `folder`, each sorted. */
export function collidingIncomingNames(snapshots: readonly BundleSnapshot[], folder: string): string[][] {
  return nameCollisions(incomingPaths(snapshots), rulesInside(folder));
}

/** Every path the incoming history names, once. */
export function incomingPaths(snapshots: readonly BundleSnapshot[]): Set<string> {
  const paths = new Set<string>();
  for (const snapshot of snapshots) for (const version of snapshot.versions) paths.add(version.path);
  return paths;
}
