import type { Origin } from './history.js';

// Where a version or snapshot came from, in words: one wording for the CLI's listings and the
// viewer's rows. `versionName` and `snapshotName` say how to name the version or snapshot a
// restore brought back (the CLI by the ids its flags take, the viewer by number and time).

export function originText(
  origin: Origin,
  versionName: (versionId: number) => string = (id) => `version ${id}`,
  snapshotName: (snapshotId: number) => string = (id) => `snapshot ${id}`,
): string {
  switch (origin.kind) {
    case 'first-copy':
      return 'First copy';
    case 'edit':
      return 'Edited';
    case 'restore':
      if (origin.fromGit) return `Restored from git ${origin.fromGit}`;
      if (origin.fromVersionId !== null) return `Restored from ${versionName(origin.fromVersionId)}`;
      if (origin.fromSnapshotId !== null) return `Restored from ${snapshotName(origin.fromSnapshotId)}`;
      return 'Restored';
    case 'undo':
      return 'Undo of a restore';
    case 'git':
      return `${origin.gitWhen === 'before' ? 'Before' : 'After'} git ${origin.gitOperation ?? 'operation'}`;
    case 'checkpoint':
      return 'Checkpoint';
  }
}
