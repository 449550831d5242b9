import type { Pins } from '../../../shared/contract/values.js';
import type { Sql } from './sql.js';

// Pins: a pinned snapshot or version survives every prune (retention/planPrune.ts). A pinned
// version keeps the snapshot it belongs to, so it keeps its moment as well as its bytes.

export function pins(sql: Sql): Pins {
  return {
    snapshots: sql.rows<[number]>('SELECT snapshot_id FROM pinned_snapshots ORDER BY snapshot_id').map((r) => r[0]),
    versions: sql.rows<[number]>('SELECT version_id FROM pinned_versions ORDER BY version_id').map((r) => r[0]),
  };
}

/** Pins or unpins a snapshot; answers whether anything changed. */
export function setSnapshotPin(sql: Sql, snapshotId: number, pinned: boolean, at: number): boolean {
  const run = pinned
    ? sql.run('INSERT OR IGNORE INTO pinned_snapshots (snapshot_id, at) VALUES (?, ?)', snapshotId, at)
    : sql.run('DELETE FROM pinned_snapshots WHERE snapshot_id = ?', snapshotId);
  return run.changes > 0;
}

/** Pins or unpins a version; answers whether anything changed. */
export function setVersionPin(sql: Sql, versionId: number, pinned: boolean, at: number): boolean {
  const run = pinned
    ? sql.run('INSERT OR IGNORE INTO pinned_versions (version_id, at) VALUES (?, ?)', versionId, at)
    : sql.run('DELETE FROM pinned_versions WHERE version_id = ?', versionId);
  return run.changes > 0;
}
