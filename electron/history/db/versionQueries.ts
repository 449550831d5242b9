import type { DeletedFile } from '../../../shared/contract/values.js';
import type { EntryType, FileEntry, SnapshotChange, VersionInfo } from '../../../shared/history.js';
import { toVersionInfo, VERSION_SELECT, type VersionRow } from './rows.js';
import type { Sql } from './sql.js';

// Reading versions: one file's history, one version, the files as they stand at a snapshot, the
// files deleted last, and what one snapshot changed. Every query walks an index: versions by
// path (path, snapshot_id), by snapshot, or the primary key. A path has one version per snapshot,
// and snapshot ids grow with time, so "a path's versions by snapshot_id" is their order, read
// straight from versions_by_path without a sort.

export function versionsOf(sql: Sql, path: string): VersionInfo[] {
  return sql.all<VersionRow>(`${VERSION_SELECT} WHERE v.path = ? ORDER BY v.snapshot_id`, path).map(toVersionInfo);
}

/**
 * One page of a path's versions: the newest `limit` ones older than the snapshot `before` (all
 * when undefined), oldest first like versionsOf. Walks versions_by_path backwards and stops.
 */
export function versionsPage(sql: Sql, path: string, before: number | undefined, limit: number): VersionInfo[] {
  const rows = sql.all<VersionRow>(`${VERSION_SELECT} WHERE v.path = ? AND v.snapshot_id < ? ORDER BY v.snapshot_id DESC LIMIT ?`, path, before ?? Number.MAX_SAFE_INTEGER, limit);
  return rows.reverse().map(toVersionInfo);
}

export function version(sql: Sql, versionId: number): VersionInfo | undefined {
  const row = sql.get<VersionRow>(`${VERSION_SELECT} WHERE v.id = ?`, versionId);
  return row && toVersionInfo(row);
}

export function latestVersion(sql: Sql, path: string): VersionInfo | undefined {
  const row = sql.get<VersionRow>(`${VERSION_SELECT} WHERE v.path = ? ORDER BY v.snapshot_id DESC LIMIT 1`, path);
  return row && toVersionInfo(row);
}

/** The version of a path just before a snapshot (what a restore in that snapshot replaced). */
export function versionBefore(sql: Sql, path: string, snapshotId: number): VersionInfo | undefined {
  const row = sql.get<VersionRow>(`${VERSION_SELECT} WHERE v.path = ? AND v.snapshot_id < ? ORDER BY v.snapshot_id DESC LIMIT 1`, path, snapshotId);
  return row && toVersionInfo(row);
}

/** The id of the version a path had as of a snapshot (what restoring that snapshot brings back). */
export function versionIdAt(sql: Sql, path: string, snapshotId: number): number | undefined {
  return sql.get<{ id: number }>('SELECT id FROM versions WHERE path = ? AND snapshot_id <= ? ORDER BY snapshot_id DESC LIMIT 1', path, snapshotId)?.id;
}

/** The latest version of a path with contents (not a deletion). */
export function latestContents(sql: Sql, path: string): VersionInfo | undefined {
  const row = sql.get<VersionRow>(`${VERSION_SELECT} WHERE v.path = ? AND v.hash IS NOT NULL ORDER BY v.snapshot_id DESC LIMIT 1`, path);
  return row && toVersionInfo(row);
}

/** What a change group compares a file with: its latest version's contents, mode and kind. */
export interface LatestVersion {
  hash: string | null;
  mode: number;
  type: EntryType | null;
  target: string | null;
}

export function latestVersionOf(sql: Sql, path: string): LatestVersion | undefined {
  return sql.get<LatestVersion>('SELECT hash, mode, type, target FROM versions WHERE path = ? ORDER BY snapshot_id DESC LIMIT 1', path);
}

/** Every file as it stands at a snapshot (default: the latest), sorted by path. */
export function filesAt(sql: Sql, at: number): FileEntry[] {
  const rows = sql.all<{ path: string; type: EntryType; hash: string; mode: number; size: number; target: string | null }>(
    `SELECT v.path, v.type, v.hash, v.mode, v.size, v.target FROM versions v
     JOIN (SELECT MAX(id) AS id FROM versions WHERE snapshot_id <= ? GROUP BY path) latest ON latest.id = v.id
     WHERE v.hash IS NOT NULL ORDER BY v.path`,
    at,
  );
  return rows.map((r) =>
    r.type === 'symlink' && r.target !== null
      ? { path: r.path, type: r.type, hash: r.hash, mode: r.mode, size: r.size, target: r.target }
      : { path: r.path, type: r.type, hash: r.hash, mode: r.mode, size: r.size },
  );
}

/** Paths whose latest version is a deletion, each with the last version that had contents. */
export function deletedFiles(sql: Sql): DeletedFile[] {
  const deletions = sql.all<VersionRow>(
    `${VERSION_SELECT} JOIN (SELECT MAX(id) AS id FROM versions GROUP BY path) latest ON latest.id = v.id
     WHERE v.hash IS NULL ORDER BY v.path`,
  );
  return deletions.map((row) => deletedFileOf(sql, toVersionInfo(row)));
}

/** A deletion as the viewer and the CLI show it: with the last version that had contents. */
export function deletedFileOf(sql: Sql, deletion: VersionInfo): DeletedFile {
  const last = latestContents(sql, deletion.path) ?? null;
  return {
    path: deletion.path,
    deletion,
    lastContents: last,
    versionId: deletion.versionId,
    snapshotId: deletion.snapshotId,
    deletedAt: deletion.at,
    lastVersionId: last?.versionId ?? null,
    size: last?.size ?? null,
  };
}

/**
 * What one snapshot changed: its versions, each called added, modified or deleted by the version
 * of the same path just before it. A snapshot records a version only for a path that changed, so
 * this is one indexed read of the snapshot's versions, never a comparison of two file trees.
 */
export function snapshotChanges(sql: Sql, snapshotId: number): SnapshotChange[] {
  const rows = sql.all<{ id: number; path: string; hash: string | null; mode: number; size: number; type: EntryType | null; had: number | null }>(
    `SELECT v.id, v.path, v.hash, v.mode, v.size, v.type,
       (SELECT p.hash IS NOT NULL FROM versions p WHERE p.path = v.path AND p.snapshot_id < v.snapshot_id
        ORDER BY p.snapshot_id DESC LIMIT 1) AS had
     FROM versions v WHERE v.snapshot_id = ? ORDER BY v.path`,
    snapshotId,
  );
  return rows.map((r) => ({
    path: r.path,
    change: r.hash === null ? 'deleted' : r.had === 1 ? 'modified' : 'added',
    versionId: r.id,
    hash: r.hash,
    mode: r.mode,
    size: r.size,
    type: r.type,
  }));
}

/** The versions that name a blob: what a missing or corrupt blob takes with it. */
export function versionsNaming(sql: Sql, hash: string): { versionId: number; snapshotId: number; path: string }[] {
  return sql.all('SELECT id AS versionId, snapshot_id AS snapshotId, path FROM versions WHERE hash = ? ORDER BY id', hash);
}
