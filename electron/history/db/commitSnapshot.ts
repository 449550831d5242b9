import type { EntryType, SnapshotInfo, SnapshotKind } from '../../../shared/history.js';
import { recordFolderModes } from './folderModes.js';
import type { Sql } from './sql.js';
import { writeStats, type StatRow } from './statCache.js';

// The one place a snapshot is written: the snapshot, its versions, the blobs they name and the
// stat rows, in one transaction. It answers with the snapshot as the contract shows it, built
// from what it wrote (no query), so the index can announce it the moment it is committed.

export interface NewVersion {
  path: string;
  hash: string | null;
  mode: number;
  size: number;
  type: EntryType | null;
  target?: string | null;
}

export interface NewSnapshot {
  kind: SnapshotKind;
  at?: number;
  label?: string | null;
  branch?: string | null;
  head?: string | null;
  /** Brought in from another machine (a clone or pull): that machine's id and the snapshot's id there. */
  machine?: string;
  origin?: number;
}

export interface SnapshotWrite {
  snapshot: NewSnapshot;
  versions: readonly NewVersion[];
  blobs: readonly { hash: string; size: number }[];
  stats?: readonly StatRow[];
  removedStats?: readonly string[];
  /** The folders' modes seen with it (the baseline's): recorded where new or changed. */
  folderModes?: ReadonlyMap<string, number>;
}

export function commitSnapshot(sql: Sql, write: SnapshotWrite, context: { branch: string | null; head: string | null } | undefined): SnapshotInfo {
  const { snapshot } = write;
  const at = snapshot.at ?? Date.now();
  const label = snapshot.label ?? null;
  const branch = snapshot.branch ?? context?.branch ?? null;
  const head = snapshot.head ?? context?.head ?? null;
  return sql.transaction(() => {
    const info = sql.run(
      'INSERT INTO snapshots (kind, at, label, branch, head, machine, origin) VALUES (?, ?, ?, ?, ?, ?, ?)',
      snapshot.kind,
      at,
      label,
      branch,
      head,
      snapshot.machine ?? null,
      snapshot.origin ?? null,
    );
    const id = Number(info.lastInsertRowid);
    for (const blob of write.blobs) sql.run('INSERT OR IGNORE INTO blobs (hash, size) VALUES (?, ?)', blob.hash, blob.size);
    for (const v of write.versions) {
      sql.run(
        'INSERT INTO versions (snapshot_id, path, hash, mode, size, type, target) VALUES (?, ?, ?, ?, ?, ?, ?)',
        id,
        v.path,
        v.hash,
        v.mode,
        v.size,
        v.type,
        v.target ?? null,
      );
    }
    writeStats(sql, write.stats ?? [], write.removedStats ?? []);
    if (write.folderModes) recordFolderModes(sql, id, write.folderModes);
    return { snapshotId: id, kind: snapshot.kind, at, label, files: write.versions.length, branch, head };
  });
}
