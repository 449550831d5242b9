import type { RecordedSnapshot } from '../remoteLayout/recordFormat.js';
import type { Sql } from './sql.js';

// This machine's line of history as a push sends it: the snapshots recorded here (machine IS
// NULL; imported ones carry the machine they came from) after a given id, each with the versions
// it recorded, oldest first.

type VersionTuple = [snapshotId: number, path: string, hash: string | null, mode: number, size: number, type: 'file' | 'symlink' | null, target: string | null];

export function ownSnapshotsAfter(sql: Sql, after: number): RecordedSnapshot[] {
  const rows = sql.all<{ id: number; kind: RecordedSnapshot['kind']; at: number; label: string | null; branch: string | null; head: string | null }>(
    'SELECT id, kind, at, label, branch, head FROM snapshots WHERE id > ? AND machine IS NULL ORDER BY id',
    after,
  );
  if (rows.length === 0) return [];
  const byId = new Map<number, RecordedSnapshot>();
  const snapshots = rows.map((r) => {
    const snapshot: RecordedSnapshot = { idOnMachine: r.id, kind: r.kind, at: r.at, label: r.label, branch: r.branch, head: r.head, versions: [] };
    byId.set(r.id, snapshot);
    return snapshot;
  });
  const versions = sql.rows<VersionTuple>(
    'SELECT snapshot_id, path, hash, mode, size, type, target FROM versions WHERE snapshot_id > ? ORDER BY snapshot_id, id',
    after,
  );
  for (const [snapshotId, path, hash, mode, size, type, target] of versions) {
    byId.get(snapshotId)?.versions.push({ path, hash, mode, size, type, target });
  }
  return snapshots;
}

/** How many snapshots recorded here come after `after` (what a push would send). */
export function countOwnSnapshotsAfter(sql: Sql, after: number): number {
  return sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM snapshots WHERE id > ? AND machine IS NULL', after)!.n;
}
