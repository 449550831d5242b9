import { comparePaths, isUnderPrefix } from '../../../shared/projectPath.js';
import { importedThrough } from './importedThrough.js';
import type { Sql } from './sql.js';

// The empty folders of a snapshot: folders recorded present at it (folder_modes, this machine's
// line: only it records folders) with no file of the snapshot under them, the deepest ones only
// (making them makes their parents). Restic and borg restore them; so does every restore here.
// Folders are told present or gone from meta 'folders.goneFrom' on (migration 15): an older
// snapshot has none, so a folder deleted before then never comes back. Nor has a snapshot a
// bundle import wrote (importedThrough.ts): a bundle carries folders' modes, not their removal.

export function emptyFoldersAt(sql: Sql, snapshotId: number, filePaths: () => Iterable<string>): string[] {
  const since = Number(sql.get<{ value: string }>("SELECT value FROM meta WHERE key = 'folders.goneFrom'")?.value ?? Number.MAX_SAFE_INTEGER);
  const own = sql.get<{ machine: string | null }>('SELECT machine FROM snapshots WHERE id = ?', snapshotId);
  if (snapshotId < since || snapshotId <= importedThrough(sql) || !own || own.machine !== null) return [];
  const present = sql
    .rows<[string, number]>(
      `SELECT f.path, f.gone FROM folder_modes f WHERE f.snapshot_id = (
         SELECT MAX(f2.snapshot_id) FROM folder_modes f2 JOIN snapshots s2 ON s2.id = f2.snapshot_id
         WHERE f2.path = f.path AND f2.snapshot_id <= ? AND s2.machine IS NULL)`,
      snapshotId,
    )
    .filter(([, gone]) => gone === 0)
    .map(([path]) => path)
    .sort(comparePaths);
  // A folder holds something when a file or another present folder lies under it.
  const holding = new Set<string>();
  const noteParents = (path: string) => {
    for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) holding.add(path.slice(0, slash));
  };
  // Read only when the snapshot has folders recorded: a page of files at a time, never all at once.
  if (present.length === 0) return [];
  for (const path of filePaths()) noteParents(path);
  for (const path of present) noteParents(path);
  return present.filter((path) => !holding.has(path));
}

/** The empty folders under a prefix (null: all). */
export function underPrefix(folders: readonly string[], prefix: string | null): string[] {
  return prefix === null ? [...folders] : folders.filter((f) => isUnderPrefix(f, prefix));
}
