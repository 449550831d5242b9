import { HindsightError } from '../../../shared/errors.js';
import type { EntryType, Origin, SnapshotInfo, SnapshotKind } from '../../../shared/history.js';
import { recordFolderModes } from './folderModes.js';
import { applyToSummaries, summariesBeforeCommit } from './folderSummaries.js';
import { lineOfMachine } from './lines.js';
import { recordRenames } from './renames.js';
import { FOLDED_INTO, originOfKind } from './rows.js';
import type { Sql } from './sql.js';
import { writeStats, type StatRow } from './statCache.js';
import { recordChunks, type ChunkRow } from './chunkRows.js';

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
  /** A restored version: the version whose contents it brought back. */
  fromVersionId?: number | null;
}

/** What made a snapshot; kind defaults to the one its snapshot kind implies (a change: an edit). */
export type NewOrigin = Partial<Omit<Origin, 'fromVersionId'>>;

export interface NewSnapshot {
  kind: SnapshotKind;
  at?: number;
  label?: string | null;
  branch?: string | null;
  head?: string | null;
  origin?: NewOrigin;
  /** Brought in from another machine (a clone or pull): that machine's id and the snapshot's id there. */
  machine?: string;
  machineSnapshot?: number;
}

/** A blob a snapshot names: its raw size and, when the writer placed its file, the file's bytes on disk. */
export interface NewBlob {
  hash: string;
  size: number;
  storedSize?: number;
  /** A blob filed in chunks: its chunks in order (chunkRows.ts). */
  chunks?: readonly ChunkRow[];
}

/**
 * Names a blob in the index. A stored size the writer knows (it placed the file, or placed it
 * again after damage, perhaps in the other form) replaces what the row had; an unknown one keeps it.
 */
export function recordBlob(sql: Sql, blob: NewBlob): void {
  sql.run(
    'INSERT INTO blobs (hash, size, stored_size) VALUES (?, ?, ?) ON CONFLICT(hash) DO UPDATE SET stored_size = COALESCE(excluded.stored_size, stored_size)',
    blob.hash,
    blob.size,
    blob.storedSize ?? null,
  );
}

export interface SnapshotWrite {
  snapshot: NewSnapshot;
  versions: readonly NewVersion[];
  blobs: readonly NewBlob[];
  stats?: readonly StatRow[];
  removedStats?: readonly string[];
  /** The folders' modes seen with it (the baseline's): recorded where new or changed. */
  folderModes?: ReadonlyMap<string, number>;
  /** Pinned as it is written (a checkpoint a person made): no prune removes it. */
  pin?: boolean;
  /** Files moved: the path of a new version here, and the path (deleted here) it came from. */
  renames?: readonly { path: string; fromPath: string }[];
}

/** Whether a blob's file is in place: asked only for a blob a prune collected since it was first stored. */
export type BlobPresent = (hash: string) => boolean;

export function commitSnapshot(
  sql: Sql,
  write: SnapshotWrite,
  context: { branch: string | null; head: string | null } | undefined,
  blobPresent: BlobPresent,
): SnapshotInfo {
  const scope = scopeOf(write.versions);
  return sql.transaction(() => {
    const { id, at, label, branch, head, origin } = insertSnapshotRow(sql, write.snapshot, context, scope);
    const { snapshot } = write;
    const filed = new Set(write.blobs.map((b) => b.hash));
    const line = lineOfMachine(sql, snapshot.machine);
    // Read inside the transaction: a prune marks and collects under the same write lock.
    const pruned = anyPruned(sql);
    for (const blob of write.blobs) {
      recordBlob(sql, blob);
      if (pruned) reviveBlob(sql, blob.hash, blobPresent);
      if (!blob.chunks) continue;
      recordChunks(sql, blob.hash, blob.chunks);
      // A chunk trusted while a prune collected it: looked at again, as a blob is.
      if (pruned) for (const chunk of blob.chunks) reviveBlob(sql, chunk.hash, blobPresent);
    }
    // The folders' figures (folderSummaries.ts) move with this snapshot, in this transaction.
    const summaries = summariesBeforeCommit(
      sql,
      line,
      write.versions.map((v) => v.path),
    );
    const versionIds = new Map<string, number>();
    for (const v of write.versions) {
      const inserted = sql.run(
        'INSERT INTO versions (snapshot_id, path, hash, mode, size, type, target, from_version, line) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
        id,
        v.path,
        v.hash,
        v.mode,
        v.size,
        v.type,
        v.target ?? null,
        v.fromVersionId ?? null,
        line,
      );
      versionIds.set(v.path, Number(inserted.lastInsertRowid));
    }
    const renames = (write.renames ?? []).flatMap((r) => {
      const versionId = versionIds.get(r.path);
      return versionId === undefined ? [] : [{ versionId, path: r.path, fromPath: r.fromPath }];
    });
    recordRenames(sql, renames);
    // A version may name a blob already stored (same bytes as an earlier version): that blob
    // lives again, whatever a prune marked it.
    for (const v of write.versions) {
      if (!pruned || v.hash === null || filed.has(v.hash)) continue;
      reviveBlob(sql, v.hash, blobPresent);
      sql.run('INSERT OR IGNORE INTO blobs (hash, size) VALUES (?, ?)', v.hash, v.size);
    }
    if (summaries) applyToSummaries(sql, id, summaries, write.versions);
    if (write.pin) sql.run('INSERT OR IGNORE INTO pinned_snapshots (snapshot_id, at) VALUES (?, ?)', id, at);
    writeStats(sql, write.stats ?? [], write.removedStats ?? []);
    if (write.folderModes) recordFolderModes(sql, id, write.folderModes);
    const committed: SnapshotInfo = { snapshotId: id, kind: snapshot.kind, at, label, files: write.versions.length, branch, head, origin, scope };
    if (snapshot.kind === 'checkpoint') {
      const folded = sql.get<{ id: number | null }>(`SELECT ${FOLDED_INTO} AS id FROM snapshots s WHERE s.id = ?`, id)?.id;
      if (folded !== null && folded !== undefined) committed.foldedInto = folded;
    }
    return committed;
  });
}

/** The snapshot row itself, as the contract will show it (db/stagedBaseline.ts writes a baseline's with it too). */
export interface SnapshotRow {
  id: number;
  at: number;
  label: string | null;
  branch: string | null;
  head: string | null;
  origin: Origin;
}

/** Inserts a snapshot's row; inside the caller's transaction. */
export function insertSnapshotRow(
  sql: Sql,
  snapshot: NewSnapshot,
  context: { branch: string | null; head: string | null } | undefined,
  scope: string | null,
): SnapshotRow {
  const at = snapshot.at ?? Date.now();
  const label = snapshot.label ?? null;
  const branch = snapshot.branch ?? context?.branch ?? null;
  const head = snapshot.head ?? context?.head ?? null;
  const origin: Origin = {
    kind: snapshot.origin?.kind ?? originOfKind(snapshot.kind),
    fromVersionId: null,
    fromSnapshotId: snapshot.origin?.fromSnapshotId ?? null,
    fromGit: snapshot.origin?.fromGit ?? null,
    gitOperation: snapshot.origin?.gitOperation ?? null,
    gitWhen: snapshot.origin?.gitWhen ?? null,
  };
  const info = sql.run(
    `INSERT INTO snapshots (kind, at, label, branch, head, origin, origin_snapshot, from_git, git_operation, git_when, scope, machine, machine_snapshot)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    snapshot.kind,
    at,
    label,
    branch,
    head,
    origin.kind,
    origin.fromSnapshotId,
    origin.fromGit,
    origin.gitOperation,
    origin.gitWhen,
    scope,
    snapshot.machine ?? null,
    snapshot.machineSnapshot ?? null,
  );
  return { id: Number(info.lastInsertRowid), at, label, branch, head, origin };
}

/** Whether any blob is marked or collected: a history never pruned pays nothing per blob. */
export function anyPruned(sql: Sql): boolean {
  return sql.get<{ any: number }>('SELECT EXISTS (SELECT 1 FROM blob_marks) OR EXISTS (SELECT 1 FROM blob_tombstones) AS any')!.any === 1;
}

/**
 * A blob named again: its unreferenced mark is cleared (a prune then keeps it), and when a prune
 * collected it after the writer found its file in place, the file is looked at once more, here,
 * inside the transaction a prune's collection also needs: a missing file fails the write (the
 * writer files the bytes again) instead of naming a blob that is gone.
 */
export function reviveBlob(sql: Sql, hash: string, blobPresent: BlobPresent): void {
  sql.run('DELETE FROM blob_marks WHERE hash = ?', hash);
  if (sql.get('SELECT 1 FROM blob_tombstones WHERE hash = ?', hash) === undefined) return;
  if (!blobPresent(hash)) {
    throw new HindsightError('BLOB_MISSING', `The stored copy ${hash.slice(0, 12)} was cleaned up while it was being recorded again; record again.`, {
      hash,
      collected: true,
    });
  }
  sql.run('DELETE FROM blob_tombstones WHERE hash = ?', hash);
}

/** The one path, or the deepest folder holding every path ('' for the top); null for none. */
export function scopeOf(versions: readonly { path: string }[]): string | null {
  if (versions.length === 0) return null;
  // The common prefix of all paths is the common prefix of the least and the greatest.
  let lo = versions[0]!.path;
  let hi = lo;
  for (const { path } of versions) {
    if (path < lo) lo = path;
    if (path > hi) hi = path;
  }
  if (lo === hi) return lo;
  let n = 0;
  while (n < lo.length && lo[n] === hi[n]) n++;
  // Back to a whole folder name: "src/app" and "src/apple" share "src", not "src/app".
  const shared = lo.slice(0, n);
  const folderEnd = (lo.length > n && lo[n] === '/') || (hi.length > n && hi[n] === '/') ? n : shared.lastIndexOf('/');
  return folderEnd <= 0 ? '' : lo.slice(0, folderEnd);
}
