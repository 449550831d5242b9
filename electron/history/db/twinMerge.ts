import { joinVersions, type SpellingRow } from './joinedVersions.js';
import { dropVersion } from './spellingJoin.js';
import type { Sql } from './sql.js';

// A twin's history (one folder opened under two spellings, each spelling given a history of its
// own) merged into this one, in one transaction with the mark naming the twin's history: a process
// killed before the commit leaves this history as it was and the twin's store untouched, so the
// next open merges again; one killed after it finds the mark and only finishes (the twin forgotten,
// its store removed). Both histories are this machine's recording of one folder, so their
// snapshots become one line in time order: every snapshot keeps its time and takes its place
// among the others (ids given again in that order, which the line's state queries follow), every
// version keeps its contents, and its pins, renames and restores follow it. The twin's blobs are
// placed in this store before (registry/mergeTwinHistory.ts). Histories holding other machines'
// lines, a remote's ledger or a fork are left as they are: their ids are another machine's too.

export interface TwinMerge {
  /** The twin's history.db. */
  file: string;
  /** The meta key marking the twin merged. */
  mark: string;
  /** Meta keys taken away with the merge: marks of repairs the twin's rows need again (its spellings joined). */
  unmark: readonly string[];
  /** Called inside the transaction midway: the twin's rows in, its repeats and the mark not yet. */
  midway?: () => void;
}

export type TwinMergeOutcome = { merged: { snapshots: number; versions: number } } | { already: true } | { left: string };

/** Merges the twin's rows into this history (attached for the transaction, detached after). */
export function mergeTwin(sql: Sql, merge: TwinMerge): TwinMergeOutcome {
  sql.run('ATTACH DATABASE ? AS twin', merge.file);
  try {
    return sql.immediate(() => {
      if (sql.get('SELECT 1 AS one FROM main.meta WHERE key = ?', merge.mark)) return { already: true as const };
      const why = whyLeft(sql);
      if (why) return { left: why };
      // The ids change under the rows naming them; the references are whole again at the commit.
      sql.run('PRAGMA defer_foreign_keys = ON');
      mapSnapshots(sql);
      renumberOwn(sql);
      const merged = insertTwin(sql);
      merge.midway?.();
      dropRepeats(sql);
      sql.run('UPDATE main.folder_summary_state SET fresh = 0 WHERE id = 1');
      sql.run('INSERT INTO main.meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', merge.mark, String(Date.now()));
      for (const key of merge.unmark) sql.run('DELETE FROM main.meta WHERE key = ?', key);
      sql.run('DROP TABLE temp.snapshot_map');
      return { merged };
    });
  } finally {
    sql.run('DETACH DATABASE twin');
  }
}

function whyLeft(sql: Sql): string | undefined {
  for (const db of ['main', 'twin']) {
    if (sql.get(`SELECT 1 AS one FROM ${db}.snapshots WHERE machine IS NOT NULL LIMIT 1`)) return 'it holds snapshots of another machine';
    if (sql.get(`SELECT 1 AS one FROM ${db}.lines WHERE fork_line IS NOT NULL LIMIT 1`)) return 'it was cloned from a remote';
    if (sql.get(`SELECT 1 AS one FROM ${db}.remote_links LIMIT 1`)) return 'it was pushed to a remote';
  }
  return undefined;
}

/** Every snapshot of both histories, its new id by time (this history's first where two have one time). */
function mapSnapshots(sql: Sql): void {
  sql.run(`CREATE TEMP TABLE snapshot_map AS
    SELECT src, old, ROW_NUMBER() OVER (ORDER BY at, src, old) AS new
    FROM (SELECT 0 AS src, id AS old, at FROM main.snapshots UNION ALL SELECT 1, id, at FROM twin.snapshots)`);
  sql.run('CREATE INDEX temp.snapshot_map_by_old ON snapshot_map(src, old)');
}

const OWN = (column: string) => `(SELECT new FROM temp.snapshot_map WHERE src = 0 AND old = ${column})`;

/** This history's snapshot ids given again (through their negatives, so no two rows ever meet on one key). */
function renumberOwn(sql: Sql): void {
  const gone = sql.get<{ value: string }>("SELECT value FROM main.meta WHERE key = 'folders.goneFrom'");
  for (const [table, column] of [
    ['snapshots', 'id'],
    ['versions', 'snapshot_id'],
    ['folder_modes', 'snapshot_id'],
    ['pinned_snapshots', 'snapshot_id'],
  ] as const) {
    sql.run(`UPDATE main.${table} SET ${column} = -${column}`);
    sql.run(`UPDATE main.${table} SET ${column} = ${OWN(`-main.${table}.${column}`)}`);
  }
  sql.run(`UPDATE main.snapshots SET origin_snapshot = ${OWN('main.snapshots.origin_snapshot')} WHERE origin_snapshot IS NOT NULL`);
  if (gone) {
    // Folders are told present or gone from that snapshot on: its new id, or past every snapshot.
    const from = sql.get<{ id: number | null }>(`SELECT MIN(new) AS id FROM temp.snapshot_map WHERE src = 0 AND old >= ?`, Number(gone.value))?.id;
    const past = sql.get<{ id: number }>('SELECT COUNT(*) + 1 AS id FROM temp.snapshot_map')!.id;
    sql.run("UPDATE main.meta SET value = ? WHERE key = 'folders.goneFrom'", String(from ?? past));
  }
}

/** The twin's rows added under their new ids; its versions' ids moved past this history's. */
function insertTwin(sql: Sql): { snapshots: number; versions: number } {
  const offset = sql.get<{ n: number }>('SELECT COALESCE(MAX(id), 0) AS n FROM main.versions')!.n;
  const TWIN = (column: string) => `(SELECT new FROM temp.snapshot_map WHERE src = 1 AND old = ${column})`;
  const snapshots = sql.run(
    `INSERT INTO main.snapshots (id, kind, at, label, branch, head, origin, origin_snapshot, from_git, git_operation, git_when, scope)
     SELECT ${TWIN('s.id')}, s.kind, s.at, s.label, s.branch, s.head, s.origin, ${TWIN('s.origin_snapshot')}, s.from_git, s.git_operation, s.git_when, s.scope
     FROM twin.snapshots s`,
  ).changes;
  const versions = sql.run(
    `INSERT INTO main.versions (id, snapshot_id, path, hash, mode, size, type, target, from_version, line)
     SELECT v.id + ?, ${TWIN('v.snapshot_id')}, v.path, v.hash, v.mode, v.size, v.type, v.target, v.from_version + ?, 0 FROM twin.versions v`,
    offset,
    offset,
  ).changes;
  sql.run(`INSERT OR IGNORE INTO main.folder_modes (path, snapshot_id, mode, gone) SELECT path, ${TWIN('snapshot_id')}, mode, gone FROM twin.folder_modes`);
  sql.run('INSERT OR IGNORE INTO main.version_renames (version_id, path, from_path) SELECT version_id + ?, path, from_path FROM twin.version_renames', offset);
  sql.run(`INSERT OR IGNORE INTO main.pinned_snapshots (snapshot_id, at) SELECT ${TWIN('snapshot_id')}, at FROM twin.pinned_snapshots`);
  sql.run('INSERT OR IGNORE INTO main.pinned_versions (version_id, at) SELECT version_id + ?, at FROM twin.pinned_versions', offset);
  sql.run('INSERT OR IGNORE INTO main.blobs (hash, size) SELECT hash, size FROM twin.blobs');
  sql.run('INSERT OR IGNORE INTO main.damaged_blobs (hash, problem, found_at) SELECT hash, problem, found_at FROM twin.damaged_blobs');
  // A blob the twin names is kept by it now, whatever a prune here had marked.
  sql.run('DELETE FROM main.blob_marks WHERE hash IN (SELECT hash FROM twin.blobs)');
  // One baseline: the first snapshot of the line; a later one is the folder as it was then, a change.
  sql.run("UPDATE main.snapshots SET kind = 'change' WHERE kind = 'baseline' AND id > (SELECT MIN(id) FROM main.snapshots)");
  sql.run("UPDATE main.snapshots SET kind = 'baseline' WHERE id = (SELECT MIN(id) FROM main.snapshots)");
  return { snapshots, versions };
}

/**
 * Where both histories recorded the folder, a version saying what the path already held (the
 * twin's first copy of files this history had, an edit both recorded) is no change: it goes, its
 * pins and restores handed to the version it repeats (spellingJoin.ts dropVersion).
 */
function dropRepeats(sql: Sql): void {
  let path: string | undefined;
  let rows: SpellingRow[] = [];
  const settle = () => {
    if (path === undefined) return;
    const plan = joinVersions(rows, path);
    if (!('conflict' in plan)) for (const [id, holder] of plan.dropped) dropVersion(sql, id, holder);
  };
  const all = sql.all<SpellingRow>(
    `SELECT id, snapshot_id AS snapshotId, path, hash, mode, type, target FROM main.versions
     WHERE path IN (SELECT path FROM twin.versions) ORDER BY path, snapshot_id, id`,
  );
  for (const row of all) {
    if (row.path !== path) {
      settle();
      path = row.path;
      rows = [];
    }
    rows.push(row);
  }
  settle();
}
