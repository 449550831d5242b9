import type { RetentionPolicy } from './retention.js';

// Which snapshots the policy keeps, counted the way restic's --keep-* count: a rule keeps the
// newest snapshot of each of its N most recent buckets (hours, days, weeks) that have one, so
// buckets with no snapshot (a machine off for a month) use up nothing. Nothing is measured from
// the clock: "within 24 hours" is within 24 hours of the newest snapshot.
//
// A clock that jumped back writes snapshots whose time is before older ones. Each snapshot is
// placed at the latest time seen up to it (in the order they were recorded), so a snapshot never
// looks older than one recorded before it: work recorded after the jump counts as recent, and
// nothing after it can make an earlier snapshot look newer than it was.

export interface TimedSnapshot {
  id: number;
  at: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Each snapshot's time, never before the time of one recorded before it; `snapshots` sorted by id. */
export function effectiveTimes(snapshots: readonly TimedSnapshot[]): number[] {
  const times: number[] = [];
  let latest = -Infinity;
  for (const s of snapshots) {
    latest = Math.max(latest, s.at);
    times.push(latest);
  }
  return times;
}

/** Local wall-clock time as a count of milliseconds: hours and days start where a person's do. */
function local(t: number): number {
  return t - new Date(t).getTimezoneOffset() * 60_000;
}

export const bucketOf = {
  hour: (t: number) => Math.floor(local(t) / HOUR),
  day: (t: number) => Math.floor(local(t) / DAY),
  // Day 0 (1970-01-01) was a Thursday: +3 starts every week on a Monday.
  week: (t: number) => Math.floor((Math.floor(local(t) / DAY) + 3) / 7),
};

export interface PolicyMarks {
  /** The snapshots (by index in the list) the policy keeps. */
  kept: boolean[];
  /** The effective time of each snapshot. */
  times: number[];
  /** Where each rule's reach ends, as an effective time (undefined: the rule reaches the oldest snapshot, or keeps nothing). */
  everyVersionSince: number;
  hourlySince: number | undefined;
  dailySince: number | undefined;
}

/** The snapshots the policy's rules keep (the newest always among them); `snapshots` sorted by id. */
export function policyKeeps(snapshots: readonly TimedSnapshot[], policy: RetentionPolicy): PolicyMarks {
  const times = effectiveTimes(snapshots);
  const kept = snapshots.map(() => false);
  const newest = times.length === 0 ? 0 : times[times.length - 1]!;
  const everyVersionSince = newest - policy.keepAllHours * HOUR;
  for (let i = 0; i < times.length; i++) if (times[i]! >= everyVersionSince) kept[i] = true;
  const hourlySince = keepNewestPerBucket(times, kept, bucketOf.hour, policy.hourly);
  const dailySince = keepNewestPerBucket(times, kept, bucketOf.day, policy.daily);
  keepNewestPerBucket(times, kept, bucketOf.week, policy.weekly ?? Infinity);
  if (kept.length > 0) kept[kept.length - 1] = true;
  return { kept, times, everyVersionSince, hourlySince, dailySince };
}

/** Marks the newest snapshot of each of the `count` most recent buckets that have one; answers the oldest time kept. */
function keepNewestPerBucket(times: readonly number[], kept: boolean[], bucket: (t: number) => number, count: number): number | undefined {
  let seen = 0;
  let last: number | undefined;
  let oldest: number | undefined;
  for (let i = times.length - 1; i >= 0 && seen < count; i--) {
    const key = bucket(times[i]!);
    if (key === last) continue;
    last = key;
    seen++;
    kept[i] = true;
    oldest = times[i];
  }
  return oldest;
}
