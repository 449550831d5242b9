import type { FolderChild, FolderFile, FolderLevel } from '../../../shared/contract/values.js';
import type { EntryType } from '../../../shared/history.js';
import { compareNames } from '../../../shared/treeOrder.js';
import type { Sql } from './sql.js';
import { deletedFileOf, version } from './versionQueries.js';

// One level of the file tree: a folder's direct children as they stand at a snapshot. The
// folder's paths are one range of versions_by_path (path >= 'dir/' AND path < 'dir0': '0' is the
// byte after '/'), so a folder is answered by reading its own subtree from the index, never the
// whole table; only the root reads every path. The baseline's versions of the same range mark
// what changed since the first copy, the way the whole-tree listing lets the viewer mark it.

interface LatestRow {
  id: number;
  path: string;
  type: EntryType | null;
  hash: string | null;
  mode: number;
  size: number;
  target: string | null;
}

/** The byte range of versions.path under a folder ('' = everything). */
export function folderRange(folder: string): { from: string; to: string } | null {
  return folder === '' ? null : { from: `${folder}/`, to: `${folder}0` };
}

/** The latest version (or deletion) of each path under `folder` as of snapshot `at`, by path. */
export function latestUnder(sql: Sql, folder: string, at: number): LatestRow[] {
  const range = folderRange(folder);
  const where = range ? 'path >= ? AND path < ? AND snapshot_id <= ?' : 'snapshot_id <= ?';
  const params = range ? [range.from, range.to, at] : [at];
  return sql.all<LatestRow>(
    `SELECT v.id, v.path, v.type, v.hash, v.mode, v.size, v.target FROM versions v
     JOIN (SELECT MAX(id) AS id FROM versions WHERE ${where} GROUP BY path) latest ON latest.id = v.id
     ORDER BY v.path`,
    ...params,
  );
}

export function folderLevel(sql: Sql, folder: string, at: number, baseline: number | undefined): FolderLevel {
  const start = folder === '' ? 0 : folder.length + 1;
  const before = new Map<string, string | null>();
  if (baseline !== undefined) for (const row of latestUnder(sql, folder, baseline)) before.set(row.path, row.hash);

  const folders = new Map<string, FolderChild>();
  const files: FolderFile[] = [];
  const deleted: FolderLevel['deleted'] = [];
  for (const row of latestUnder(sql, folder, at)) {
    const rest = row.path.slice(start);
    const slash = rest.indexOf('/');
    const changed = row.hash !== null && before.get(row.path) !== row.hash;
    if (slash >= 0) {
      const name = rest.slice(0, slash);
      let child = folders.get(name);
      if (!child) {
        child = { name, path: row.path.slice(0, start + slash), files: 0, deleted: 0, changed: false };
        folders.set(name, child);
      }
      if (row.hash === null) child.deleted++;
      else child.files++;
      if (changed) child.changed = true;
    } else if (row.hash !== null && row.type !== null) {
      const entry: FolderFile = { name: rest, path: row.path, type: row.type, hash: row.hash, mode: row.mode, size: row.size, changed };
      if (row.type === 'symlink' && row.target !== null) entry.target = row.target;
      files.push(entry);
    } else {
      deleted.push(deletedFileOf(sql, version(sql, row.id)!));
    }
  }
  const byName = (a: { name: string }, b: { name: string }) => compareNames(a.name, b.name);
  return {
    folder,
    snapshotId: at,
    folders: [...folders.values()].sort(byName),
    files: files.sort(byName),
    deleted: deleted.sort((a, b) => compareNames(a.path, b.path)),
  };
}
