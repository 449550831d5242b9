import { SNAPSHOT_EFFECT_PATHS, type SnapshotEffect, type SnapshotInfo } from '../../../shared/history.js';
import { anyPruned, insertSnapshotRow, reviveBlob, scopeOf, type BlobPresent, type NewSnapshot } from './commitSnapshot.js';
import { summariesKeptByFirstSnapshot, summarizeFirstSnapshot } from './folderSummaries.js';
import { recordFolderModes } from './folderModes.js';
import { insertRows } from './insertRows.js';
import { OWN_LINE } from './lines.js';
import type { Sql } from './sql.js';

// A first copy's baseline written in batches (migration 21): each batch of filed files goes into
// staged_files, staged_blobs and staged_chunks in a short transaction of its own, tables no reader
// looks at; the one transaction that writes the baseline's snapshot moves them, in SQL, into
// versions, stat_cache, blobs and blob_chunks. So the history process holds one batch of rows at
// a time, not every file's, and a reader sees the whole baseline or none of it. A copy killed
// between batches leaves only staged rows, which the next first copy clears before it starts.

/** One staged file: its version and its stat row (a link's stat comes from the walk's lstat). */
export interface StagedFile {
  path: string;
  type: 'file' | 'symlink';
  hash: string;
  mode: number;
  size: number;
  target: string | null;
  stat: { size: number; mode: number; mtimeNs: string; ctimeNs: string; ino: string };
}

/** A blob the baseline names, and (filed in chunks) its chunks. */
export interface StagedBlob {
  hash: string;
  size: number;
  storedSize?: number;
  chunks?: readonly { hash: string; size: number }[];
}

/** One batch of the baseline's rows. */
export interface StagedBatch {
  files: readonly StagedFile[];
  blobs: readonly StagedBlob[];
}

/** The snapshot that makes the staged rows a baseline, and the folders' modes seen with it. */
export interface BaselinePublish {
  snapshot: NewSnapshot;
  folderModes?: ReadonlyMap<string, number>;
}

/** A published baseline, and what it changed as its event tells it (snapshotEffect.ts's shape). */
export interface PublishedBaseline {
  committed: SnapshotInfo;
  effect: SnapshotEffect;
}

const BLOB_UPSERT = 'ON CONFLICT(hash) DO UPDATE SET stored_size = COALESCE(excluded.stored_size, stored_size)';

/** Writes one batch of staged rows in one transaction. */
export function stageBatch(sql: Sql, batch: StagedBatch): void {
  sql.transaction(() => {
    insertRows(
      sql,
      'INSERT OR REPLACE INTO staged_files (path, type, hash, mode, size, target, stat_size, stat_mode, mtime_ns, ctime_ns, ino)',
      batch.files.map((f) => [f.path, f.type, f.hash, f.mode, f.size, f.target, f.stat.size, f.stat.mode, f.stat.mtimeNs, f.stat.ctimeNs, f.stat.ino]),
    );
    insertRows(
      sql,
      'INSERT INTO staged_blobs (hash, size, stored_size)',
      batch.blobs.map((b) => [b.hash, b.size, b.storedSize ?? null]),
      BLOB_UPSERT,
    );
    insertRows(
      sql,
      'INSERT OR IGNORE INTO staged_chunks (list, seq, chunk, size)',
      batch.blobs.flatMap((b) => (b.chunks ?? []).map((chunk, seq) => [b.hash, seq, chunk.hash, chunk.size])),
    );
  });
}

/** Forgets every staged row (a first copy starting again, or one that failed); answers how many files were staged. */
export function clearStaged(sql: Sql): number {
  return sql.transaction(() => {
    const files = stagedFiles(sql);
    sql.run('DELETE FROM staged_files');
    sql.run('DELETE FROM staged_blobs');
    sql.run('DELETE FROM staged_chunks');
    return files;
  });
}

/** How many files are staged now. */
export function stagedFiles(sql: Sql): number {
  return sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM staged_files')!.n;
}

/**
 * Writes the baseline's snapshot and moves every staged row under it, in one transaction (the
 * caller's kind: immediate on a connection of its own). A history a prune marked has its blobs
 * revived as commitSnapshot does (`blobPresent` looks at a collected blob's file).
 */
export function publishBaseline(
  sql: Sql,
  publish: BaselinePublish,
  context: { branch: string | null; head: string | null } | undefined,
  blobPresent: BlobPresent,
): PublishedBaseline {
  const files = stagedFiles(sql);
  const ends = sql.get<{ lo: string | null; hi: string | null }>('SELECT MIN(path) AS lo, MAX(path) AS hi FROM staged_files')!;
  const scope = ends.lo === null || ends.hi === null ? null : scopeOf([{ path: ends.lo }, { path: ends.hi }]);
  const row = insertSnapshotRow(sql, publish.snapshot, context, scope);
  sql.run(`INSERT INTO blobs (hash, size, stored_size) SELECT hash, size, stored_size FROM staged_blobs WHERE true ${BLOB_UPSERT}`);
  sql.run('INSERT OR IGNORE INTO blob_chunks (list, seq, chunk, size) SELECT list, seq, chunk, size FROM staged_chunks');
  // Read inside the transaction: a prune marks and collects under the same write lock.
  if (anyPruned(sql)) for (const hash of revivable(sql)) reviveBlob(sql, hash, blobPresent);
  const summarized = summariesKeptByFirstSnapshot(sql, OWN_LINE);
  sql.run(
    `INSERT INTO versions (snapshot_id, path, hash, mode, size, type, target, from_version, line)
     SELECT ?, path, hash, mode, size, type, target, NULL, ? FROM staged_files ORDER BY path`,
    row.id,
    OWN_LINE,
  );
  // Otherwise their insert left the summaries stale, and the next level read makes them again.
  if (summarized) summarizeFirstSnapshot(sql, row.id, stagedPaths(sql));
  sql.run(
    `INSERT INTO stat_cache (path, type, size, mode, mtime_ns, ctime_ns, ino, hash, target)
     SELECT path, type, stat_size, stat_mode, mtime_ns, ctime_ns, ino, hash, target FROM staged_files WHERE true
     ON CONFLICT(path) DO UPDATE SET type = excluded.type, size = excluded.size, mode = excluded.mode,
       mtime_ns = excluded.mtime_ns, ctime_ns = excluded.ctime_ns, ino = excluded.ino,
       hash = excluded.hash, target = excluded.target`,
  );
  if (publish.folderModes) recordFolderModes(sql, row.id, publish.folderModes);
  const paths = files > SNAPSHOT_EFFECT_PATHS ? null : [...stagedPaths(sql)].sort();
  clearStaged(sql);
  const { snapshot } = publish;
  const committed: SnapshotInfo = {
    snapshotId: row.id,
    kind: snapshot.kind,
    at: row.at,
    label: row.label,
    files,
    branch: row.branch,
    head: row.head,
    origin: row.origin,
    scope,
  };
  return { committed, effect: { paths, removed: false, pinned: false } };
}

function* stagedPaths(sql: Sql): Generator<string> {
  for (const [path] of sql.iterateRows<[string]>('SELECT path FROM staged_files')) yield path;
}

/** The staged blobs and chunks a prune marked or collected: the only ones a revive changes. */
function revivable(sql: Sql): string[] {
  return sql
    .rows<[string]>(
      `SELECT hash FROM (SELECT hash FROM staged_blobs UNION SELECT chunk AS hash FROM staged_chunks)
       WHERE hash IN (SELECT hash FROM blob_marks) OR hash IN (SELECT hash FROM blob_tombstones)`,
    )
    .map(([hash]) => hash);
}
