import type { ProjectStore } from '../project/projectStore.js';

// The files whose latest version is a deletion, each with the last version that had contents:
// what a "deleted files" list shows, and what `restore FOLDER PATH --version ID` brings back.

export interface DeletedFile {
  path: string;
  /** The deletion: its version and snapshot. */
  versionId: number;
  snapshotId: number;
  deletedAt: number;
  /** The last version with contents (restore this one); null if there never was one. */
  lastVersionId: number | null;
  size: number | null;
}

export function deletedFiles(store: ProjectStore): DeletedFile[] {
  return store.index.db
    .prepare(
      `SELECT v.path, v.id AS versionId, v.snapshot_id AS snapshotId, s.at AS deletedAt,
         (SELECT p.id FROM versions p WHERE p.path = v.path AND p.hash IS NOT NULL ORDER BY p.id DESC LIMIT 1) AS lastVersionId,
         (SELECT p.size FROM versions p WHERE p.path = v.path AND p.hash IS NOT NULL ORDER BY p.id DESC LIMIT 1) AS size
       FROM versions v
       JOIN (SELECT MAX(id) AS id FROM versions GROUP BY path) latest ON latest.id = v.id
       JOIN snapshots s ON s.id = v.snapshot_id
       WHERE v.hash IS NULL ORDER BY v.path`,
    )
    .all() as DeletedFile[];
}
