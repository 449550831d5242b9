import type { DeletedFile, FolderLevel } from '../../../shared/contract.js';
import { maxOf } from '../../../shared/largeArrays.js';

// Whether the folder on disk holds the files its history speaks of. A history imported for a
// folder that is empty (or holds a few of its files) is recorded, at the folder's first look, as
// every missing file deleted at once: the tree would show a history of deletions. Told apart from
// a person's own deletions by scale: the folder holds none of the files, or one snapshot took at
// least nine in ten of them (and more than two).

export type FolderMismatch = 'empty' | 'partial' | null;

export function folderMismatch(root: FolderLevel, deleted: readonly DeletedFile[]): FolderMismatch {
  if (deleted.length === 0) return null;
  const present = root.files.length + root.folders.reduce((n, f) => n + f.files, 0);
  if (present === 0) return 'empty';
  const perSnapshot = new Map<number, number>();
  for (const d of deleted) perSnapshot.set(d.snapshotId, (perSnapshot.get(d.snapshotId) ?? 0) + 1);
  const most = maxOf([...perSnapshot.values()]);
  return most > 2 && most * 10 >= (present + deleted.length) * 9 ? 'partial' : null;
}
