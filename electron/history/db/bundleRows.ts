import type { EntryType, SnapshotInfo, SnapshotKind } from '../../../shared/history.js';
import { anyPruned, reviveBlob, scopeOf, type BlobPresent } from './commitSnapshot.js';
import { MADE_BY_A_PERSON } from './migrations.js';
import { noteImportedThrough } from './importedThrough.js';
import { insertRows } from './insertRows.js';
import { lineOfMachine, machineOfLine, OWN_LINE, writeFork } from './lines.js';
import { toOrigin, type OriginColumns } from './rows.js';
import type { Sql } from './sql.js';

// The rows a bundle carries (bundle/, docs/BUNDLE.md): read in pages for an export, written in
// one transaction by an import. Ids are kept: a snapshot or version has the same id on every
// machine that imported it, so the same bundle imported twice finds its rows already there.

export interface SnapshotRowOut extends OriginColumns {
  id: number;
  kind: SnapshotKind;
  at: number;
  label: string | null;
  branch: string | null;
  head: string | null;
  /** The machine that recorded it and its id there (null: this machine). */
  machine: string | null;
  machine_snapshot: number | null;
}

export type VersionRowOut = [
  id: number,
  snapshotId: number,
  path: string,
  hash: string | null,
  mode: number,
  size: number,
  type: EntryType | null,
  target: string | null,
  fromVersion: number | null,
];

/** The snapshots after `since` up to `last`, oldest first. */
export function snapshotsBetween(sql: Sql, since: number, last: number): SnapshotRowOut[] {
  return sql.all(
    `SELECT id, kind, at, label, branch, head, machine, machine_snapshot, origin, origin_snapshot, from_git, git_operation, git_when
     FROM snapshots WHERE id > ? AND id <= ? ORDER BY id`,
    since,
    last,
  );
}

/** One page of the versions of snapshots after `since` up to `last`, in (snapshot, id) order, after the row `from`. */
export function versionPage(sql: Sql, since: number, last: number, from: [snapshotId: number, id: number], limit: number): VersionRowOut[] {
  return sql.rows(
    `SELECT id, snapshot_id, path, hash, mode, size, type, target, from_version FROM versions
     WHERE snapshot_id > ? AND snapshot_id <= ? AND (snapshot_id, id) > (?, ?) ORDER BY snapshot_id, id LIMIT ?`,
    since,
    last,
    from[0],
    from[1],
    limit,
  );
}

/** The folder-mode rows of snapshots after `since` up to `last`. */
export function folderModesBetween(sql: Sql, since: number, last: number): [string, number, number][] {
  return sql.rows(
    'SELECT path, snapshot_id, mode FROM folder_modes WHERE snapshot_id > ? AND snapshot_id <= ? AND gone = 0 ORDER BY snapshot_id, path',
    since,
    last,
  );
}

/** A line of history as a bundle carries it: its machine (null: this one) and where it forked. */
export interface LineRowOut {
  machine: string | null;
  fork: { machine: string | null; origin: number } | null;
}

/** Every line that has snapshots or a fork: this machine's and the others' (a few rows). */
export function linesOut(sql: Sql): LineRowOut[] {
  const rows = sql.all<{ id: number; machine: string | null; fork_line: number | null; fork_origin: number | null }>(
    'SELECT id, machine, fork_line, fork_origin FROM lines ORDER BY id',
  );
  return rows
    .filter((r) => r.id !== OWN_LINE || r.fork_line !== null)
    .map((r) => ({
      machine: r.id === OWN_LINE ? null : r.machine,
      fork: r.fork_line === null || r.fork_origin === null ? null : { machine: machineOfLine(sql, r.fork_line), origin: r.fork_origin },
    }));
}

/** Pin rows, [id, the time it was pinned]: of snapshots, and of versions. */
export interface PinRows {
  snapshots: [number, number][];
  versions: [number, number][];
}

/** The pins of the snapshots after `since` up to `last`, and of their versions. */
export function pinsBetween(sql: Sql, since: number, last: number): PinRows {
  return {
    snapshots: sql.rows('SELECT snapshot_id, at FROM pinned_snapshots WHERE snapshot_id > ? AND snapshot_id <= ? ORDER BY snapshot_id', since, last),
    versions: sql.rows(
      `SELECT p.version_id, p.at FROM pinned_versions p JOIN versions v ON v.id = p.version_id
       WHERE v.snapshot_id > ? AND v.snapshot_id <= ? ORDER BY p.version_id`,
      since,
      last,
    ),
  };
}

/**
 * The blobs the versions after `since` (up to `last`) name, by hash, each marked when a version
 * at or before `since` names it too (the receiver of an incremental bundle already holds those).
 */
export function blobsBetween(sql: Sql, since: number, last: number): { hash: string; size: number; held: number }[] {
  // A whole history (no snapshot at or before 0): nothing is held, and a probe per blob for the
  // versions before it (half of this query's time on 50,000 blobs) would only answer that.
  if (since === 0) {
    return sql.all(
      `SELECT b.hash, b.size, 0 AS held
       FROM blobs b WHERE b.hash IN (SELECT hash FROM versions WHERE snapshot_id <= ? AND hash IS NOT NULL)
       ORDER BY b.hash`,
      last,
    );
  }
  return sql.all(
    `SELECT b.hash, b.size,
       EXISTS (SELECT 1 FROM versions p WHERE p.hash = b.hash AND p.snapshot_id <= ?) AS held
     FROM blobs b WHERE b.hash IN (SELECT hash FROM versions WHERE snapshot_id > ? AND snapshot_id <= ? AND hash IS NOT NULL)
     ORDER BY b.hash`,
    since,
    since,
    last,
  );
}

export interface ImportedRows {
  snapshots: readonly (SnapshotRowOut & { versions: readonly VersionRowOut[] })[];
  folderModes: readonly [string, number, number][];
  /** The pins the bundle carried; null for a bundle of format 1, which carried none. */
  pins: PinRows | null;
  /** The lines the bundle carried (format 3; empty before it: everything lands on this machine's line). */
  lines: readonly LineRowOut[];
  blobs: readonly { hash: string; size: number }[];
}

/**
 * Writes the rows of an import in one transaction; answers the snapshots written (ids already
 * present are skipped). A blob the import found in place may have been marked or collected by a
 * prune meanwhile: it is revived as a recorded change revives it (commitSnapshot.ts). The
 * pins carried are written for the snapshots this import adds (a snapshot already here keeps the
 * pins it has here); a bundle of format 1 carried none, so the checkpoints a person made are pinned,
 * as migration 6 pins them.
 */
export function writeImportedRows(sql: Sql, rows: ImportedRows, blobPresent: BlobPresent): SnapshotInfo[] {
  // Each insert (foreign keys, unique indexes) keeps a statement journal of the pages it changes;
  // once one outgrew SQLite's in-memory limit it is a file, and every later row of the transaction
  // writes its pages there again (two writes a row: 100,000 of them for 50,000 versions). Every
  // statement here changes a few pages, so in memory it stays small; the setting is put back
  // after, for the statements elsewhere that change many pages (a prune's deletes).
  const before = sql.pragma('temp_store');
  sql.pragma('temp_store = MEMORY');
  try {
    return writeRows(sql, rows, blobPresent);
  } finally {
    sql.pragma(`temp_store = ${Number(before)}`);
  }
}

function writeRows(sql: Sql, rows: ImportedRows, blobPresent: BlobPresent): SnapshotInfo[] {
  return sql.transaction(() => {
    const written: SnapshotInfo[] = [];
    const pruned = anyPruned(sql);
    insertRows(
      sql,
      'INSERT OR IGNORE INTO blobs (hash, size)',
      rows.blobs.map((b) => [b.hash, b.size]),
    );
    writeLines(sql, rows.lines);
    for (const s of rows.snapshots) {
      if (sql.get('SELECT 1 FROM snapshots WHERE id = ?', s.id)) continue;
      // Origins absent (a bundle before format 3) stay NULL: the snapshot is told by its kind, as before migration 3.
      const scope = scopeOf(s.versions.map((v) => ({ path: v[2] })));
      sql.run(
        `INSERT INTO snapshots (id, kind, at, label, branch, head, scope, machine, machine_snapshot, origin, origin_snapshot, from_git, git_operation, git_when)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        s.id,
        s.kind,
        s.at,
        s.label,
        s.branch,
        s.head,
        scope,
        s.machine,
        s.machine_snapshot,
        s.origin,
        s.origin_snapshot,
        s.from_git,
        s.git_operation,
        s.git_when,
      );
      const line = lineOfMachine(sql, s.machine);
      insertRows(
        sql,
        'INSERT INTO versions (id, snapshot_id, path, hash, mode, size, type, target, from_version, line)',
        s.versions.map((v) => [v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], line]),
      );
      if (pruned) {
        for (const v of s.versions) {
          if (v[3] === null) continue;
          reviveBlob(sql, v[3], blobPresent);
          sql.run('INSERT OR IGNORE INTO blobs (hash, size) VALUES (?, ?)', v[3], v[5]);
        }
      }
      if (!rows.pins)
        sql.run(`INSERT OR IGNORE INTO pinned_snapshots (snapshot_id, at) SELECT id, at FROM snapshots WHERE id = ? AND ${MADE_BY_A_PERSON}`, s.id);
      const origin = toOrigin(s, null);
      written.push({ snapshotId: s.id, kind: s.kind, at: s.at, label: s.label, files: s.versions.length, branch: s.branch, head: s.head, origin, scope });
    }
    if (rows.pins) writePins(sql, rows.pins, new Set(written.map((s) => s.snapshotId)));
    const added = new Set(written.map((s) => s.snapshotId));
    noteImportedThrough(
      sql,
      rows.snapshots.filter((s) => s.machine === null && added.has(s.id)).map((s) => s.id),
    );
    insertRows(sql, 'INSERT OR IGNORE INTO folder_modes (path, snapshot_id, mode)', rows.folderModes);
    return written;
  });
}

/**
 * The carried lines: each machine's line made here when new, and its fork set where this history
 * has none for it yet (the same history carries the same forks; one already set is kept).
 */
function writeLines(sql: Sql, carried: readonly LineRowOut[]): void {
  for (const { machine, fork } of carried) {
    const line = lineOfMachine(sql, machine);
    if (!fork || sql.get('SELECT 1 FROM lines WHERE id = ? AND fork_line IS NOT NULL', line)) continue;
    const forkLine = lineOfMachine(sql, fork.machine);
    if (forkLine !== line) writeFork(sql, line, { line: forkLine, origin: fork.origin });
  }
}

/** The carried pins of the snapshots just added, and of their versions. */
function writePins(sql: Sql, pins: PinRows, added: ReadonlySet<number>): void {
  for (const [id, at] of pins.snapshots) {
    if (added.has(id)) sql.run('INSERT OR IGNORE INTO pinned_snapshots (snapshot_id, at) VALUES (?, ?)', id, at);
  }
  for (const [id, at] of pins.versions) {
    const row = sql.get<{ snapshot_id: number }>('SELECT snapshot_id FROM versions WHERE id = ?', id);
    if (row && added.has(row.snapshot_id)) sql.run('INSERT OR IGNORE INTO pinned_versions (version_id, at) VALUES (?, ?)', id, at);
  }
}
