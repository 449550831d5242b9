import { rmdirSync } from 'node:fs';
import { fsPath } from '../paths/fsPath.js';

// After a restore deleted files (added since the snapshot, or the files an undone restore had
// recreated), the folders that held only them are empty: the snapshot had no such folder, so
// they go too, deepest first, never the project folder itself, nor a folder the snapshot has empty. rmdir removes only an empty
// folder, so a folder that still holds anything (a file the restore kept, one written meanwhile)
// stays, and so does every folder above it.

export function removeEmptyParents(root: string, deleted: readonly string[], keep: readonly string[] = []): string[] {
  const folders = new Set<string>();
  for (const path of deleted) {
    for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) folders.add(path.slice(0, slash));
  }
  // The snapshot restored has these folders empty (and so their parents): they stay.
  for (const folder of keep) {
    folders.delete(folder);
    for (let slash = folder.lastIndexOf('/'); slash > 0; slash = folder.lastIndexOf('/', slash - 1)) folders.delete(folder.slice(0, slash));
  }
  const removed: string[] = [];
  // Deepest first: a folder empties only once the folders inside it are gone.
  for (const folder of [...folders].sort((a, b) => b.split('/').length - a.split('/').length || (a < b ? -1 : 1))) {
    try {
      rmdirSync(fsPath(root, folder));
      removed.push(folder);
    } catch {
      // Not empty, already gone, or not ours to remove: left as it is.
    }
  }
  return removed;
}
