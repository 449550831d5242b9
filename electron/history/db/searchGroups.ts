import type { BlobTextState } from './searchIndex.js';
import { trigramQuery } from './searchIndex.js';
import type { Sql } from './sql.js';

// A search's groups (one file and one content) in the order the answer shows them: newest first,
// then the latest snapshot, then the path. SQLite groups and sorts them (its sorter keeps a
// bounded part in memory and spills the rest to a temporary file), and the search steps through
// the answer one group at a time, so no number of matches is ever held in one array; a group's
// versions are read only for the groups the answer lists.

/** Where a search's versions come from. */
export type SearchScope =
  /** The blobs the index names for a literal (every trigram of it, case ignored), and the damaged ones. */
  | { kind: 'indexed'; literal: string; maxSize: number }
  /** Those, then the blobs within the size limit the build has not looked at yet. */
  | { kind: 'partlyIndexed'; literal: string; maxSize: number }
  /** Every file version within the size limit (a query the index cannot narrow). */
  | { kind: 'everything'; maxSize: number };

/**
 * One file and one content: [path, hash, lastSeen, newest snapshot id, size, state], state being
 * what the index build found its blob to be (null: not looked at yet).
 */
export type SearchGroupRow = [string, string, number, number, number, BlobTextState | null];

/** One version of a group: [versionId, snapshotId, at]. */
export type SearchGroupVersion = [number, number, number];

/** The earliest time when no `since` is asked: every snapshot is at or after it. */
const ANY_TIME = Number.MIN_SAFE_INTEGER;

// Each scope's versions as [path, hash, at, snapshot_id, size, state], recorded at or after @since.
const CANDIDATES = `SELECT v.path, v.hash, s.at, v.snapshot_id, v.size, 'text' AS state FROM search_text t
     JOIN search_blobs b ON b.id = t.rowid
     JOIN versions v ON v.hash = b.hash
     JOIN snapshots s ON s.id = v.snapshot_id
   WHERE search_text MATCH @match AND v.type = 'file' AND s.at >= @since`;

// The versions of blobs found missing or damaged (db/damagedBlobs.ts): the index holds no text of
// them, so no literal names them, yet they may hold it. Read again (state NULL): the search says
// it skipped them, or finds the text if the blob was brought back meanwhile. damaged_blobs is
// small (empty in a healthy store) and goes first.
const DAMAGED = `SELECT v.path, v.hash, s.at, v.snapshot_id, v.size, NULL AS state FROM damaged_blobs d
     CROSS JOIN versions v ON v.hash = d.hash
     JOIN snapshots s ON s.id = v.snapshot_id
   WHERE v.size <= @maxSize AND v.type = 'file' AND s.at >= @since`;

// CROSS JOIN keeps the blobs first: left to itself the planner scans every version.
const UNINDEXED = `SELECT v.path, v.hash, s.at, v.snapshot_id, v.size, NULL AS state FROM blobs b
     CROSS JOIN versions v ON v.hash = b.hash
     JOIN snapshots s ON s.id = v.snapshot_id
   WHERE b.size <= @maxSize AND v.type = 'file' AND s.at >= @since
     AND NOT EXISTS (SELECT 1 FROM search_blobs x WHERE x.hash = b.hash)`;

const EVERY_FILE_VERSION = `SELECT v.path, v.hash, s.at, v.snapshot_id, v.size, x.state FROM versions v
     JOIN snapshots s ON s.id = v.snapshot_id
     LEFT JOIN search_blobs x ON x.hash = v.hash
   WHERE v.hash IS NOT NULL AND v.type = 'file' AND v.size <= @maxSize AND s.at >= @since`;

/** The groups of `rows`, newest first; among equals the latest snapshot, then by path (the bytes, as SQLite orders them). */
function groupsOf(rows: string): string {
  return `SELECT path, hash, MAX(at) AS lastSeen, MAX(snapshot_id) AS newest, MAX(size), MAX(state)
    FROM (${rows})
    GROUP BY path, hash
    ORDER BY lastSeen DESC, newest DESC, path, hash`;
}

const ROWS_OF: Record<SearchScope['kind'], string> = {
  indexed: `${CANDIDATES} UNION ALL ${DAMAGED}`,
  partlyIndexed: `${CANDIDATES} UNION ALL ${UNINDEXED} UNION ALL ${DAMAGED}`,
  everything: EVERY_FILE_VERSION,
};

/** The scope's groups with a version at or after `since`, in the order a search shows them, one row at a time. */
export function searchGroups(sql: Sql, scope: SearchScope, since: number | undefined): Iterable<SearchGroupRow> {
  const params: Record<string, unknown> = { since: since ?? ANY_TIME };
  if (scope.kind !== 'everything') params.match = trigramQuery(scope.literal);
  params.maxSize = scope.maxSize;
  return sql.iterateRows<SearchGroupRow>(groupsOf(ROWS_OF[scope.kind]), params);
}

/** A group's file versions recorded at or after `since`, newest snapshot first. */
export function searchGroupVersions(sql: Sql, path: string, hash: string, since: number | undefined): SearchGroupVersion[] {
  return sql.rows<SearchGroupVersion>(
    `SELECT v.id, v.snapshot_id, s.at FROM versions v JOIN snapshots s ON s.id = v.snapshot_id
     WHERE v.path = ? AND v.hash = ? AND v.type = 'file' AND s.at >= ?
     ORDER BY v.snapshot_id DESC, v.id`,
    path,
    hash,
    since ?? ANY_TIME,
  );
}
