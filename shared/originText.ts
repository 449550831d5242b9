import type { Origin } from './history.js';

// Where a version or snapshot came from, in words: one wording for the CLI's listings and the
// viewer's rows. `versionName` says how to name the version a restore brought back (the CLI by
// its id, the viewer by its place in the file's list).

export function originText(origin: Origin, versionName: (versionId: number) => string = (id) => `version ${id}`): string {
  switch (origin.kind) {
    case 'first-copy':
      return 'First copy';
    case 'edit':
      return 'Edited';
    case 'restore':
      if (origin.fromGit) return `Restored from git ${origin.fromGit}`;
      if (origin.fromVersionId !== null) return `Restored from ${versionName(origin.fromVersionId)}`;
      if (origin.fromSnapshotId !== null) return `Restored from snapshot ${origin.fromSnapshotId}`;
      return 'Restored';
    case 'undo':
      return 'Undo of a restore';
    case 'git':
      return `${origin.gitWhen === 'before' ? 'Before' : 'After'} git ${origin.gitOperation ?? 'operation'}`;
    case 'checkpoint':
      return 'Checkpoint';
  }
}
