import type { BucketSize, DensityBucket, GrowthPoint } from '../../../shared/contract/timeDensity.js';
import { bucketMsOf, bucketSizeFor, foldBuckets, HOUR_MS } from '../../../shared/timeBuckets.js';
import { STORED_BYTES } from './blobQueries.js';
import { lineage } from './renames.js';
import type { Sql } from './sql.js';

// How much changed per hour or day, and the store's size over time, counted by SQLite: each query
// groups by the hour (at the caller's UTC offset), so a history of 100,000 snapshots answers at
// most one row per hour it recorded in; a history spanning more than HOURLY_SPAN_MS is then
// folded into days. The scrubber and the Store view's charts draw these.

export interface Counted<T> {
  bucket: BucketSize;
  bucketMs: number;
  rows: T[];
}

/** Hour rows folded into days when they span more than HOURLY_SPAN_MS. */
function byBucket<T extends { start: number }>(hours: T[], offsetMs: number, merge: (into: T, row: T) => void): Counted<T> {
  const first = hours[0];
  const last = hours.at(-1);
  const bucket = first && last ? bucketSizeFor(last.start + HOUR_MS - first.start) : 'hour';
  const bucketMs = bucketMsOf(bucket);
  return { bucket, bucketMs, rows: bucket === 'hour' ? hours : foldBuckets(hours, bucketMs, offsetMs, merge) };
}

function addCounts(into: DensityBucket, row: DensityBucket): void {
  into.snapshots += row.snapshots;
  into.files += row.files;
  into.snapshotId = Math.max(into.snapshotId, row.snapshotId);
  if (row.versionId !== null) into.versionId = Math.max(into.versionId ?? 0, row.versionId);
}

/** Every snapshot of every line per bucket: how many, the files they changed (the first copy's not counted), the newest. */
export function snapshotDensity(sql: Sql, offsetMs: number): Counted<DensityBucket> {
  const hours = sql.all<DensityBucket>(
    `SELECT ((s.at + CAST(? AS INTEGER)) / ${HOUR_MS}) * ${HOUR_MS} - CAST(? AS INTEGER) AS start, COUNT(*) AS snapshots, MAX(s.id) AS snapshotId, NULL AS versionId,
            COALESCE(SUM(CASE WHEN s.kind = 'baseline' THEN 0 ELSE (SELECT COUNT(*) FROM versions v WHERE v.snapshot_id = s.id) END), 0) AS files
     FROM snapshots s GROUP BY 1 ORDER BY 1`,
    offsetMs,
    offsetMs,
  );
  return byBucket(hours, offsetMs, addCounts);
}

/** One file's versions per bucket, through its renames (the versions its list shows), walking versions_by_path. */
export function pathDensity(sql: Sql, path: string, offsetMs: number): Counted<DensityBucket> {
  const byHour = new Map<number, DensityBucket>();
  for (const stretch of lineage(sql, path)) {
    const rows = sql.all<DensityBucket>(
      `SELECT ((s.at + CAST(? AS INTEGER)) / ${HOUR_MS}) * ${HOUR_MS} - CAST(? AS INTEGER) AS start, COUNT(*) AS snapshots, COUNT(*) AS files,
              MAX(v.snapshot_id) AS snapshotId, MAX(v.id) AS versionId
       FROM versions v JOIN snapshots s ON s.id = v.snapshot_id WHERE v.path = ? AND v.snapshot_id < ? GROUP BY 1`,
      offsetMs,
      offsetMs,
      stretch.path,
      stretch.before ?? Number.MAX_SAFE_INTEGER,
    );
    for (const row of rows) {
      const known = byHour.get(row.start);
      if (known) addCounts(known, row);
      else byHour.set(row.start, row);
    }
  }
  const hours = [...byHour.values()].sort((a, b) => a.start - b.start);
  return byBucket(hours, offsetMs, addCounts);
}

/**
 * The store's blobs by the bucket of the first snapshot naming each (its earliest time), summed
 * from the start: bytes on disk and as the files are, as blobTotals counts them.
 */
export function storeGrowth(sql: Sql, offsetMs: number): Counted<GrowthPoint> {
  const hours = sql.all<GrowthPoint>(
    `SELECT ((f.at + CAST(? AS INTEGER)) / ${HOUR_MS}) * ${HOUR_MS} - CAST(? AS INTEGER) AS start, COUNT(*) AS blobs, SUM(size) AS rawBytes, SUM(${STORED_BYTES}) AS storedBytes
     FROM (SELECT v.hash, MIN(s.at) AS at FROM versions v JOIN snapshots s ON s.id = v.snapshot_id WHERE v.hash IS NOT NULL GROUP BY v.hash) f
     JOIN blobs ON blobs.hash = f.hash GROUP BY 1 ORDER BY 1`,
    offsetMs,
    offsetMs,
  );
  const counted = byBucket(hours, offsetMs, (into, row) => {
    into.blobs += row.blobs;
    into.rawBytes += row.rawBytes;
    into.storedBytes += row.storedBytes;
  });
  let blobs = 0;
  let rawBytes = 0;
  let storedBytes = 0;
  const rows = counted.rows.map((p) => {
    blobs += p.blobs;
    rawBytes += p.rawBytes;
    storedBytes += p.storedBytes;
    return { start: p.start, blobs, rawBytes, storedBytes };
  });
  return { ...counted, rows };
}
