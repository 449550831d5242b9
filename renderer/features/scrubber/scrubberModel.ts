import type { ChangeDensity, DensityBucket } from '../../../shared/contract.js';
import { formatCount } from '../../format/bytes.js';
import { formatPeriod } from '../../format/time.js';

// The time scrubber's geometry and keys, apart from the canvas: a vertical strip of the whole
// history, newest at the top (as the list beside it), each hour or day that recorded something a
// bar as long as the square root of its changes (one busy day does not flatten the rest). A point
// of the strip picks the bucket holding its time, else the nearest one; the keys step through the
// buckets holding a change.

/** The time the strip covers: from the first bucket's start to the last one's end. */
export interface StripSpan {
  from: number;
  to: number;
}

export function stripSpan(density: Pick<ChangeDensity, 'buckets' | 'bucketMs'>): StripSpan | null {
  const first = density.buckets[0];
  const last = density.buckets.at(-1);
  return first && last ? { from: first.start, to: last.start + density.bucketMs } : null;
}

/** Where a bucket is drawn: its top (newest at the top) and its height, at least `minHeight`. */
export function bucketBand(start: number, bucketMs: number, span: StripSpan, height: number, minHeight = 2): { y: number; h: number } {
  const scale = height / (span.to - span.from);
  const h = Math.max(minHeight, bucketMs * scale);
  const y = Math.min(height - h, Math.max(0, (span.to - start - bucketMs) * scale));
  return { y, h };
}

/** The index of the bucket a point of the strip (0 at the top) falls in, else the nearest by time; -1 without buckets. */
export function bucketAt(buckets: readonly DensityBucket[], bucketMs: number, span: StripSpan, y: number, height: number): number {
  if (buckets.length === 0) return -1;
  const at = span.to - (Math.min(height, Math.max(0, y)) / height) * (span.to - span.from);
  // The last bucket starting at or before `at`, by binary search (they are oldest first).
  let lo = 0;
  let hi = buckets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (buckets[mid]!.start <= at) lo = mid;
    else hi = mid - 1;
  }
  const before = buckets[lo]!;
  if (at < before.start) return lo;
  const after = buckets[lo + 1];
  if (at < before.start + bucketMs || !after) return lo;
  return at - (before.start + bucketMs) <= after.start - at ? lo : lo + 1;
}

/** The bucket a key moves to (Up and Right newer, Down and Left older, Page by ten, Home the oldest, End the newest); null: not a key of the strip. */
export function keyMove(key: string, index: number, count: number): number | null {
  if (count === 0) return null;
  const last = count - 1;
  const clamp = (i: number) => Math.min(last, Math.max(0, i));
  switch (key) {
    case 'ArrowUp':
    case 'ArrowRight':
      return clamp(index + 1);
    case 'ArrowDown':
    case 'ArrowLeft':
      return clamp(index - 1);
    case 'PageUp':
      return clamp(index + 10);
    case 'PageDown':
      return clamp(index - 10);
    case 'Home':
      return 0;
    case 'End':
      return last;
    default:
      return null;
  }
}

/** A bar's length for `value` changes where the busiest bucket has `max`: the square root's share of `width`, at least 2 px. */
export function barLength(value: number, max: number, width: number): number {
  if (max <= 0 || value <= 0) return 0;
  return Math.max(2, Math.sqrt(value / max) * width);
}

/** What a bucket holds, in words: what the strip says of its cursor. */
export function bucketText(bucket: DensityBucket, size: ChangeDensity['bucket'], scope: 'history' | 'file'): string {
  const when = formatPeriod(bucket.start, size);
  if (scope === 'file') return `${when}: ${bucket.snapshots === 1 ? '1 version' : `${formatCount(bucket.snapshots)} versions`}`;
  const snapshots = bucket.snapshots === 1 ? '1 snapshot' : `${formatCount(bucket.snapshots)} snapshots`;
  const files = bucket.files === 1 ? '1 file changed' : `${formatCount(bucket.files)} files changed`;
  return `${when}: ${snapshots}, ${files}`;
}

/** The bucket holding a time (the selected row's), else the newest one before it; -1 when none is that old. */
export function bucketOf(buckets: readonly DensityBucket[], at: number): number {
  let found = -1;
  for (let i = 0; i < buckets.length && buckets[i]!.start <= at; i++) found = i;
  return found;
}
