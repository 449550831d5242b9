// What the time scrubber and the Store view's charts draw: how much changed per hour or day over
// a whole history (or one file's), and the store's size over time. Counted by the engine in SQL,
// so a history of 100,000 snapshots reaches the viewer as a few hundred buckets, not its rows.

export type BucketSize = 'hour' | 'day';

/** One hour or day in which something was recorded (empty ones are not sent). */
export interface DensityBucket {
  /** When the bucket starts (milliseconds since the epoch): an hour, or a day from midnight at the offset asked. */
  start: number;
  /** Snapshots recorded in it (for one file: its versions). */
  snapshots: number;
  /** Files changed in it: the versions recorded, the first copy's not counted (for one file: its versions). */
  files: number;
  /** The newest snapshot in it: where a jump lands. */
  snapshotId: number;
  /** For one file, its newest version in it; null for the whole history. */
  versionId: number | null;
}

export interface ChangeDensity {
  projectId: string;
  /** The file asked for (its versions, followed through renames), or null: every snapshot. */
  path: string | null;
  /** Hours while the history spans at most HOURLY_SPAN_MS (shared/timeBuckets.ts), days beyond. */
  bucket: BucketSize;
  bucketMs: number;
  utcOffsetMinutes: number;
  /** The buckets holding a change, oldest first. */
  buckets: DensityBucket[];
}

/** The store up to the end of one bucket: every blob first named by a snapshot until then. */
export interface GrowthPoint {
  start: number;
  /** Bytes on disk (a blob not measured yet counted as its raw size), as the Store tab's "Stored". */
  storedBytes: number;
  /** The same blobs' bytes as the files are, as the Store tab's "As the files are". */
  rawBytes: number;
  blobs: number;
}

export interface StoreGrowth {
  projectId: string;
  bucket: BucketSize;
  bucketMs: number;
  utcOffsetMinutes: number;
  /** Cumulative, oldest first: one point per bucket in which a new blob was first named. */
  points: GrowthPoint[];
}
