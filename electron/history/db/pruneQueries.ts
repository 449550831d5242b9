import { STORED_BYTES } from './blobQueries.js';
import { scopeOf } from './commitSnapshot.js';
import { unindexBlob } from './searchIndex.js';
import { chunkNeeded, dropChunkRows } from './chunkRows.js';
import type { Sql } from './sql.js';

// What a prune reads and writes (retention/prune.ts decides, retention/planPrune.ts plans): the
// history in the order the plan wants it, a chunk of the plan applied in one transaction
// (versions removed or folded forward, snapshots removed, the blobs left unreferenced marked with
// a time; retention/pruneChunks.ts says why each chunk is consistent on its own), and the
// collection of marked blobs past their grace period. Blob files are deleted inside the
// transaction that forgets their rows: a writer naming the same bytes again commits either
// before (the blob is named: kept) or after (its tombstone makes the writer look at the file).

export interface PruneRows {
  snapshots: { id: number; at: number; kind: string }[];
  versions: { id: number; snapshotId: number; path: string; hash: string | null; size: number }[];
  folderRows: { id: number; snapshotId: number; path: string; hash: null; size: 0 }[];
  blobSizes: Map<string, number>;
  pinnedSnapshots: Set<number>;
  pinnedVersions: Set<number>;
  /**
   * Every snapshot, when the history holds another machine's line (a pull brought it): thinning
   * folds versions forward by snapshot id, which would move one line's versions into another's.
   */
  heldForLines: Set<number>;
}

export function pruneRows(sql: Sql): PruneRows {
  const snapshots = sql.rows<[number, number, string]>('SELECT id, at, kind FROM snapshots ORDER BY id').map(([id, at, kind]) => ({ id, at, kind }));
  const versions = sql
    .rows<[number, number, string, string | null, number]>('SELECT id, snapshot_id, path, hash, size FROM versions ORDER BY path, snapshot_id')
    .map(([id, snapshotId, path, hash, size]) => ({ id, snapshotId, path, hash, size }));
  const folderRows = sql
    .rows<[number, string]>('SELECT snapshot_id, path FROM folder_modes ORDER BY path, snapshot_id')
    .map(([snapshotId, path], id) => ({ id, snapshotId, path, hash: null, size: 0 as const }));
  // The budget counts bytes on disk: a compressed blob costs its compressed file.
  const blobSizes = new Map(sql.rows<[string, number]>(`SELECT hash, ${STORED_BYTES} FROM blobs`));
  const pinnedSnapshots = new Set(sql.rows<[number]>('SELECT snapshot_id FROM pinned_snapshots').map((r) => r[0]));
  const pinnedVersions = new Set(sql.rows<[number]>('SELECT version_id FROM pinned_versions').map((r) => r[0]));
  const otherLines = sql.get('SELECT 1 FROM snapshots WHERE machine IS NOT NULL LIMIT 1') !== undefined;
  const heldForLines = new Set(otherLines ? snapshots.map((s) => s.id) : []);
  return { snapshots, versions, folderRows, blobSizes, pinnedSnapshots, pinnedVersions, heldForLines };
}

/** Changes whenever a snapshot, a version or a pin is written or removed: a plan made on other rows is stale. */
export function pruneFingerprint(sql: Sql): string {
  return JSON.stringify(
    sql.get(
      `SELECT (SELECT COALESCE(MAX(id), 0) FROM snapshots) AS s, (SELECT COUNT(*) FROM snapshots) AS sc,
              (SELECT COALESCE(MAX(id), 0) FROM versions) AS v, (SELECT COUNT(*) FROM versions) AS vc,
              (SELECT COUNT(*) || ':' || COALESCE(SUM(snapshot_id), 0) FROM pinned_snapshots) AS ps,
              (SELECT COUNT(*) || ':' || COALESCE(SUM(version_id), 0) FROM pinned_versions) AS pv`,
    ),
  );
}

export interface PruneWrite {
  removedVersions: readonly number[];
  movedVersions: readonly { id: number; snapshotId: number }[];
  removedFolderRows: readonly { path: string; snapshotId: number }[];
  movedFolderRows: readonly { path: string; from: number; to: number }[];
  removedSnapshots: readonly number[];
  newBaseline: number | undefined;
  unreferencedBlobs: readonly string[];
}

/** Applies a plan or one chunk of it; run inside the transaction that checked the plan is not stale. Answers the blobs marked. */
export function applyPrune(sql: Sql, write: PruneWrite, now: number): number {
  for (const id of write.removedVersions) sql.run('DELETE FROM versions WHERE id = ?', id);
  for (const move of write.movedVersions) sql.run('UPDATE versions SET snapshot_id = ? WHERE id = ?', move.snapshotId, move.id);
  for (const row of write.removedFolderRows) sql.run('DELETE FROM folder_modes WHERE path = ? AND snapshot_id = ?', row.path, row.snapshotId);
  for (const row of write.movedFolderRows) sql.run('UPDATE folder_modes SET snapshot_id = ? WHERE path = ? AND snapshot_id = ?', row.to, row.path, row.from);
  for (const id of write.removedSnapshots) sql.run('DELETE FROM snapshots WHERE id = ?', id);
  // A restore names the version or snapshot it brought back: one removed is named no more (the
  // restore stays a restore, "Restored", and no reader looks for a row that is gone).
  // One pass each (from_version has no index), after the deletes.
  if (write.removedVersions.length > 0) {
    sql.run(
      'UPDATE versions SET from_version = NULL WHERE from_version IS NOT NULL AND NOT EXISTS (SELECT 1 FROM versions w WHERE w.id = versions.from_version)',
    );
  }
  if (write.removedSnapshots.length > 0) {
    sql.run(
      'UPDATE snapshots SET origin_snapshot = NULL WHERE origin_snapshot IS NOT NULL AND NOT EXISTS (SELECT 1 FROM snapshots t WHERE t.id = snapshots.origin_snapshot)',
    );
  }
  // A snapshot that received folded versions holds more files: where they are is said again.
  for (const id of new Set(write.movedVersions.map((m) => m.snapshotId))) {
    const paths = sql.rows<[string]>('SELECT path FROM versions WHERE snapshot_id = ?', id).map(([path]) => ({ path }));
    sql.run('UPDATE snapshots SET scope = ? WHERE id = ?', scopeOf(paths), id);
  }
  if (write.newBaseline !== undefined) sql.run("UPDATE snapshots SET kind = 'baseline' WHERE id = ?", write.newBaseline);
  let marked = 0;
  for (const hash of write.unreferencedBlobs) {
    // Looked at again here: only a blob no version names is marked.
    if (sql.get('SELECT 1 FROM versions WHERE hash = ? LIMIT 1', hash) !== undefined) continue;
    marked += sql.run('INSERT OR IGNORE INTO blob_marks (hash, since) VALUES (?, ?)', hash, now).changes;
  }
  return marked;
}

/** Marked blobs whose grace period is over (a mark from a clock that ran ahead is restarted now). */
export function expiredMarks(sql: Sql, before: number, now: number, limit: number): string[] {
  sql.run('UPDATE blob_marks SET since = ? WHERE since > ?', now, now);
  return sql.rows<[string]>('SELECT hash FROM blob_marks WHERE since <= ? ORDER BY hash LIMIT ?', before, limit).map((r) => r[0]);
}

/**
 * Collects one marked blob inside the caller's transaction: one named again loses its mark and
 * stays; one still unreferenced has its file deleted (`unlink`), its rows forgotten (the search
 * index's too, so no search reads a blob that is gone) and a tombstone left. Answers the bytes
 * freed (undefined when kept).
 */
export function collectBlob(sql: Sql, hash: string, now: number, unlink: (hash: string) => void): number | undefined {
  if (sql.get('SELECT 1 FROM versions WHERE hash = ? LIMIT 1', hash) !== undefined) {
    sql.run('DELETE FROM blob_marks WHERE hash = ?', hash);
    return undefined;
  }
  const size = sql.get<{ size: number }>(`SELECT ${STORED_BYTES} AS size FROM blobs WHERE hash = ?`, hash)?.size ?? 0;
  sql.run('DELETE FROM blobs WHERE hash = ?', hash);
  // The same bytes may be a chunk of a list still kept: then the file stays.
  if (!chunkNeeded(sql, hash)) unlink(hash);
  sql.run('DELETE FROM blob_marks WHERE hash = ?', hash);
  sql.run('DELETE FROM blob_git_oids WHERE hash = ?', hash);
  sql.run('DELETE FROM blobs_kept_raw WHERE hash = ?', hash);
  unindexBlob(sql, hash);
  leaveTombstone(sql, hash, now);
  // A chunked blob's chunks go with the last list naming them; a tombstone each, so a writer that
  // trusted one meanwhile looks at its file before naming it again (commitSnapshot.reviveBlob).
  for (const chunk of dropChunkRows(sql, hash)) {
    unlink(chunk);
    leaveTombstone(sql, chunk, now);
  }
  return size;
}

function leaveTombstone(sql: Sql, hash: string, now: number): void {
  sql.run('INSERT INTO blob_tombstones (hash, at) VALUES (?, ?) ON CONFLICT(hash) DO UPDATE SET at = excluded.at', hash, now);
}

/** Tombstones older than any write in progress could be: a writer commits within minutes of filing its bytes. */
export function dropTombstones(sql: Sql, before: number): void {
  sql.run('DELETE FROM blob_tombstones WHERE at < ?', before);
}

export function markedBlobs(sql: Sql): { blobs: number; bytes: number } {
  return sql.get<{ blobs: number; bytes: number }>(
    'SELECT COUNT(*) AS blobs, COALESCE(SUM(COALESCE(b.stored_size, b.size)), 0) AS bytes FROM blob_marks m JOIN blobs b ON b.hash = m.hash',
  )!;
}

export function gitOids(sql: Sql, hashes: readonly string[]): Map<string, string> {
  const known = new Map<string, string>();
  for (const hash of new Set(hashes)) {
    const oid = sql.get<{ oid: string }>('SELECT oid FROM blob_git_oids WHERE hash = ?', hash)?.oid;
    if (oid !== undefined) known.set(hash, oid);
  }
  return known;
}

export function rememberGitOids(sql: Sql, pairs: readonly { hash: string; oid: string }[]): void {
  sql.transaction(() => {
    for (const { hash, oid } of pairs) sql.run('INSERT OR IGNORE INTO blob_git_oids (hash, oid) VALUES (?, ?)', hash, oid);
  });
}

/** The files whose versions name the most bytes on disk (each distinct blob counted once per file, as the budget counts it). */
export function spaceHolders(sql: Sql, limit: number): { path: string; versions: number; bytes: number }[] {
  return sql.all(
    `SELECT v.path, SUM(v.n) AS versions, SUM(COALESCE(b.stored_size, b.size, v.size)) AS bytes
     FROM (SELECT path, hash, MAX(size) AS size, COUNT(*) AS n FROM versions WHERE hash IS NOT NULL GROUP BY path, hash) v
     LEFT JOIN blobs b ON b.hash = v.hash
     GROUP BY v.path ORDER BY bytes DESC, v.path LIMIT ?`,
    limit,
  );
}
