import type { BucketSize } from './contract/timeDensity.js';

// Hours and days of a history, at a UTC offset: the engine counts by the hour in SQL and folds the
// hours into days when the history is long; the viewer's scrubber reads the buckets it answers.

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
/** A history spanning at most this is counted by the hour, a longer one by the day. */
export const HOURLY_SPAN_MS = 14 * DAY_MS;

export function bucketSizeFor(spanMs: number): BucketSize {
  return spanMs <= HOURLY_SPAN_MS ? 'hour' : 'day';
}

export function bucketMsOf(size: BucketSize): number {
  return size === 'hour' ? HOUR_MS : DAY_MS;
}

/** The start of the bucket holding `at` (the offset's local hour or day). */
export function bucketStart(at: number, bucketMs: number, offsetMs: number): number {
  return Math.floor((at + offsetMs) / bucketMs) * bucketMs - offsetMs;
}

/**
 * Rows counted by the hour (each `start` an hour's), folded into buckets of `bucketMs`, oldest
 * first: `merge` adds a row into the bucket's (a copy of the first row that falls in it).
 */
export function foldBuckets<T extends { start: number }>(hours: readonly T[], bucketMs: number, offsetMs: number, merge: (into: T, row: T) => void): T[] {
  const folded: T[] = [];
  for (const row of hours) {
    const start = bucketStart(row.start, bucketMs, offsetMs);
    const last = folded.at(-1);
    if (last && last.start === start) merge(last, row);
    else folded.push({ ...row, start });
  }
  return folded;
}
