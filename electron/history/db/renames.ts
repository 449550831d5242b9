import type { Sql } from './sql.js';

// Renames (table version_renames, migration 15): a file moved to another path (git mv, mv, an
// editor's rename) is one history. The first version at the new path names the path it came
// from; reading the new path's versions goes on with the old path's older ones (git log --follow,
// VS Code's Timeline and JetBrains' Local History do the same).

/** A path's stretch of a lineage: its versions older than `before` (a snapshot id; undefined: all). */
export interface LineageStretch {
  path: string;
  before: number | undefined;
}

/** Renames followed at most this deep: a file moved back and forth keeps a finite history. */
const MOST_RENAMES = 64;

export function recordRenames(sql: Sql, links: readonly { versionId: number; path: string; fromPath: string }[]): void {
  for (const link of links)
    sql.run('INSERT OR REPLACE INTO version_renames (version_id, path, from_path) VALUES (?, ?, ?)', link.versionId, link.path, link.fromPath);
}

/** The renames a snapshot recorded: each new path and the path it came from, in path order. */
export function renamesIn(sql: Sql, snapshotId: number): { path: string; fromPath: string }[] {
  return sql.all<{ path: string; fromPath: string }>(
    `SELECT r.path, r.from_path AS fromPath FROM versions v CROSS JOIN version_renames r ON r.version_id = v.id
     WHERE v.snapshot_id = ? ORDER BY r.path`,
    snapshotId,
  );
}

/** The snapshots holding at least one rename, oldest first. */
export function snapshotsWithRenames(sql: Sql): number[] {
  return sql
    .all<{ id: number }>('SELECT DISTINCT v.snapshot_id AS id FROM version_renames r CROSS JOIN versions v ON v.id = r.version_id ORDER BY 1')
    .map((r) => r.id);
}

/** A snapshot's renames replaced by these (paths of versions the snapshot holds), in one transaction. */
export function replaceRenames(sql: Sql, snapshotId: number, links: readonly { path: string; fromPath: string }[]): void {
  sql.transaction(() => {
    sql.run('DELETE FROM version_renames WHERE version_id IN (SELECT id FROM versions WHERE snapshot_id = ?)', snapshotId);
    const ids = links.flatMap((link) => {
      const id = sql.get<{ id: number }>('SELECT id FROM versions WHERE snapshot_id = ? AND path = ?', snapshotId, link.path)?.id;
      return id === undefined ? [] : [{ versionId: id, ...link }];
    });
    recordRenames(sql, ids);
  });
}

/**
 * The newest rename that brought a file to `path` at or before a snapshot: its snapshot and the
 * path it came from. At: a page that stops just short of the version the rename brought still
 * goes on with the older path.
 */
export function renameBefore(sql: Sql, path: string, before: number | undefined): { snapshotId: number; fromPath: string } | undefined {
  // From the few renames of the path (its index) to their versions: never a walk of every version of a long-lived path.
  return sql.get<{ snapshotId: number; fromPath: string }>(
    `SELECT v.snapshot_id AS snapshotId, r.from_path AS fromPath FROM version_renames r CROSS JOIN versions v ON v.id = r.version_id
     WHERE r.path = ? AND v.snapshot_id <= ? ORDER BY v.snapshot_id DESC LIMIT 1`,
    path,
    before ?? Number.MAX_SAFE_INTEGER,
  );
}

/** The stretches a path's history is made of, newest first: the path itself, then each path it was renamed from. */
export function lineage(sql: Sql, path: string, before?: number): LineageStretch[] {
  const stretches: LineageStretch[] = [{ path, before }];
  for (let i = 0; i < MOST_RENAMES; i++) {
    const last = stretches[stretches.length - 1]!;
    const link = renameBefore(sql, last.path, last.before);
    if (!link) break;
    stretches.push({ path: link.fromPath, before: link.snapshotId });
  }
  return stretches;
}

/** Whether a version is part of a path's history: its own, or an older path's before the file was renamed away from it. */
export function inLineage(sql: Sql, path: string, version: { path: string; snapshotId: number }): boolean {
  if (version.path === path) return true;
  return lineage(sql, path).some((s) => s.path === version.path && (s.before === undefined || version.snapshotId < s.before));
}
