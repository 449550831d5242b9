import type { EntryType } from '../../../shared/history.js';
import { ownSegments } from './lines.js';
import type { SearchGroupVersion } from './searchGroups.js';
import { trigramQuery, type BlobTextState } from './searchIndex.js';
import type { Sql } from './sql.js';

// What a search's answer needs of its hits, asked for a batch of hits in one statement each: the
// versions of each group, each path's latest version, the index's word on those latest blobs.
// Asked one hit at a time they were most of a long answer's SQLite time (a query or three per
// hit: 1,000 hits, 3,000 statements). The batch is a VALUES list of a fixed length, padded with
// NULLs (which name nothing), so each statement is compiled once whatever the batch holds, and
// any string a path may be goes in as a bound parameter.

/** Hits asked for in one statement: what one answer row per hit (or per version) stays within. */
export const HIT_BATCH = 200;

/** The earliest time when no `since` is asked: every snapshot is at or after it. */
const ANY_TIME = Number.MIN_SAFE_INTEGER;

/** A path's latest version on this machine's line, as far as a search asks: [hash, size, type]. */
export type LatestOfPath = [hash: string | null, size: number, type: EntryType | null];

/** `VALUES (0, ?, ?), (1, ?, ?), ...`: HIT_BATCH rows of a key and `width` parameters. */
function valuesList(width: number): string {
  const marks = Array.from({ length: width }, () => '?').join(', ');
  return Array.from({ length: HIT_BATCH }, (_, k) => `(${k}, ${marks})`).join(', ');
}

/** The parameters of a VALUES list (one array: better-sqlite3 binds its items in order): each item's values, then NULLs up to HIT_BATCH items. */
function valuesParams(items: readonly (readonly unknown[])[], width: number): unknown[] {
  if (items.length > HIT_BATCH) throw new RangeError(`at most ${HIT_BATCH} items in one batch, not ${items.length}`);
  const params: unknown[] = [];
  for (const item of items) for (let i = 0; i < width; i++) params.push(item[i]);
  for (let i = items.length * width; i < HIT_BATCH * width; i++) params.push(null);
  return params;
}

const GROUP_VERSIONS = `WITH g(k, path, hash) AS (VALUES ${valuesList(2)})
  SELECT g.k, v.id, v.snapshot_id, s.at FROM g
    CROSS JOIN versions v ON v.path = g.path AND v.hash = g.hash
    JOIN snapshots s ON s.id = v.snapshot_id
  WHERE v.type = 'file' AND s.at >= ?
  ORDER BY g.k, v.snapshot_id DESC, v.id`;

/** Each group's file versions recorded at or after `since`, newest snapshot first (db/searchGroups.ts searchGroupVersions for many groups). */
export function groupsVersions(sql: Sql, groups: readonly (readonly [string, string])[], since: number | undefined): SearchGroupVersion[][] {
  const out: SearchGroupVersion[][] = groups.map(() => []);
  const rows = sql.rows<[number, number, number, number]>(GROUP_VERSIONS, valuesParams(groups, 2), since ?? ANY_TIME);
  for (const [k, id, snapshotId, at] of rows) out[k]!.push([id, snapshotId, at]);
  return out;
}

// A path's newest version on one segment of a line (versionQueries.ts NEWEST_ON_LINE), a deletion included.
const NEWEST_ON_SEGMENT = `WITH p(k, path) AS (VALUES ${valuesList(1)})
  SELECT p.k, v.hash, v.size, v.type FROM p
    CROSS JOIN versions v ON v.id = (SELECT n.id FROM versions n WHERE n.path = p.path AND n.line = ? AND n.snapshot_id <= ?
                                     ORDER BY n.snapshot_id DESC LIMIT 1)`;

/**
 * Each path's latest version on this machine's line (versionQueries.ts latestVersion for many
 * paths): along the line's segments, the first segment that has the path wins.
 */
export function latestOfPaths(sql: Sql, paths: readonly string[]): (LatestOfPath | undefined)[] {
  const out: (LatestOfPath | undefined)[] = paths.map(() => undefined);
  let left = paths.map((path, k) => [path, k] as const);
  for (const segment of ownSegments(sql)) {
    if (left.length === 0) break;
    const rows = sql.rows<[number, string | null, number, EntryType | null]>(NEWEST_ON_SEGMENT, valuesParams(left, 1), segment.line, segment.upTo);
    for (const [k, hash, size, type] of rows) out[left[k]![1]] = [hash, size, type];
    left = left.filter(([, k]) => out[k] === undefined);
  }
  return out;
}

const BLOB_STATES = `WITH h(k, hash) AS (VALUES ${valuesList(1)})
  SELECT h.k, b.state, b.id FROM h CROSS JOIN search_blobs b ON b.hash = h.hash`;

// The rowids MATCH finds, taken whole: joined on rowid (`h CROSS JOIN search_text t ON t.rowid =
// h.id`) this SQLite answered rows MATCH does not find once the list was long (200 rows, most NULL).
const NAMED_AMONG = `WITH h(k, id) AS (VALUES ${valuesList(1)})
  SELECT h.k FROM h WHERE h.id IN (SELECT rowid FROM search_text WHERE search_text MATCH ?)`;

/** What the index build found each blob to be (undefined: not looked at), and whether the index names it for `literal`. */
export interface BlobWord {
  state: BlobTextState | undefined;
  named: boolean;
}

/** The index's word on each blob (searchIndex.ts blobTextState, searchGroups.ts indexNames, for many blobs): two statements. */
export function blobWords(sql: Sql, hashes: readonly string[], literal: string | undefined): BlobWord[] {
  const out: BlobWord[] = hashes.map(() => ({ state: undefined, named: false }));
  const ids: [number, number][] = [];
  for (const [k, state, id] of sql.rows<[number, BlobTextState, number]>(
    BLOB_STATES,
    valuesParams(
      hashes.map((h) => [h]),
      1,
    ),
  )) {
    out[k]!.state = state;
    if (state === 'text') ids.push([id, k]);
  }
  if (literal === undefined || ids.length === 0) return out;
  for (const [k] of sql.rows<[number]>(NAMED_AMONG, valuesParams(ids, 1), trigramQuery(literal))) out[ids[k]![1]]!.named = true;
  return out;
}
