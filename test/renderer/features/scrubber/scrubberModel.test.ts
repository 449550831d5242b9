import { describe, expect, it } from 'vitest';
import type { DensityBucket, StoreGrowth } from '../../../../shared/contract.js';
import { barLength, bucketAt, bucketBand, bucketOf, bucketText, keyMove, stripSpan } from '../../../../renderer/features/scrubber/scrubberModel.js';
import { growthSeries } from '../../../../renderer/features/store/chartData.js';

// The scrubber's geometry and keys: a point of the strip picks the bucket holding its time, else
// the nearest (against a scan of every bucket on generated strips, fixed seeds); each bucket's band
// picks that bucket; the keys step through buckets and stop at the ends.

process.env.TZ = 'UTC';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function random(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x1_0000_0000;
  };
}

function bucket(start: number, snapshots = 1): DensityBucket {
  return { start, snapshots, files: snapshots, snapshotId: start / HOUR, versionId: null };
}

/** Buckets holding a change, oldest first, at random distinct slots of `slots`. */
function generated(seed: number, count: number, slots: number, bucketMs: number): DensityBucket[] {
  const next = random(seed);
  const picked = new Set<number>();
  while (picked.size < count) picked.add(Math.floor(next() * slots));
  return [...picked].sort((a, b) => a - b).map((slot) => bucket(Date.UTC(2026, 0, 1) + slot * bucketMs, 1 + Math.floor(next() * 9)));
}

/** The reference: every bucket scanned, the one holding the time, else the nearest (the older on a tie). */
function nearestByScan(buckets: DensityBucket[], bucketMs: number, at: number): number {
  let best = -1;
  let distance = Infinity;
  buckets.forEach((b, i) => {
    const d = at < b.start ? b.start - at : at >= b.start + bucketMs ? at - (b.start + bucketMs) : 0;
    if (d < distance) [best, distance] = [i, d];
  });
  return best;
}

describe('the time scrubber', () => {
  for (const [seed, count, slots, bucketMs, height] of [
    [1, 5, 40, HOUR, 300],
    [2, 60, 336, HOUR, 500],
    [3, 400, 3000, DAY, 480],
    [4, 1, 1, DAY, 200],
  ] as const) {
    it(`picks the bucket a point falls in, else the nearest, as a scan does (seed ${seed}, ${count} of ${slots} slots)`, () => {
      const buckets = generated(seed, count, slots, bucketMs);
      const span = stripSpan({ buckets, bucketMs })!;
      for (let y = 0; y <= height; y += 0.25) {
        const at = span.to - (y / height) * (span.to - span.from);
        expect(bucketAt(buckets, bucketMs, span, y, height), `y ${y}`).toBe(nearestByScan(buckets, bucketMs, at));
      }
    });
  }

  it("draws the newest at the top and the oldest at the bottom, and each bucket's band picks it", () => {
    const buckets = generated(9, 30, 200, HOUR);
    const span = stripSpan({ buckets, bucketMs: HOUR })!;
    const height = 2000; // 10 px a bucket: bands do not overlap
    const bands = buckets.map((b) => bucketBand(b.start, HOUR, span, height));
    expect(bands.at(-1)!.y).toBe(0);
    expect(bands[0]!.y + bands[0]!.h).toBeCloseTo(height);
    bands.forEach((band, i) => expect(bucketAt(buckets, HOUR, span, band.y + band.h / 2, height)).toBe(i));
    // A strip shorter than its buckets still draws each at least 2 px high, inside the strip.
    for (const b of buckets) {
      const band = bucketBand(b.start, HOUR, span, 50);
      expect(band.h).toBeGreaterThanOrEqual(2);
      expect(band.y).toBeGreaterThanOrEqual(0);
      expect(band.y + band.h).toBeLessThanOrEqual(50);
    }
  });

  it('moves by one bucket with the arrows, ten with Page, to the ends with Home and End, and stops there', () => {
    expect(keyMove('ArrowUp', 3, 10)).toBe(4);
    expect(keyMove('ArrowRight', 3, 10)).toBe(4);
    expect(keyMove('ArrowDown', 3, 10)).toBe(2);
    expect(keyMove('ArrowLeft', 3, 10)).toBe(2);
    expect(keyMove('ArrowUp', 9, 10)).toBe(9);
    expect(keyMove('ArrowDown', 0, 10)).toBe(0);
    expect(keyMove('PageUp', 3, 10)).toBe(9);
    expect(keyMove('PageDown', 3, 10)).toBe(0);
    expect(keyMove('PageUp', 3, 40)).toBe(13);
    expect(keyMove('Home', 7, 10)).toBe(0);
    expect(keyMove('End', 2, 10)).toBe(9);
    expect(keyMove('Enter', 2, 10)).toBeNull();
    expect(keyMove('a', 2, 10)).toBeNull();
    expect(keyMove('Home', 0, 0)).toBeNull();
  });

  it('finds the bucket of a selected row, says a bucket in words, and scales bars by the square root', () => {
    const buckets = [bucket(Date.UTC(2026, 0, 1, 9)), bucket(Date.UTC(2026, 0, 3)), bucket(Date.UTC(2026, 0, 7))];
    expect(bucketOf(buckets, Date.UTC(2026, 0, 3, 15))).toBe(1);
    expect(bucketOf(buckets, Date.UTC(2026, 0, 5))).toBe(1);
    expect(bucketOf(buckets, Date.UTC(2025, 11, 31))).toBe(-1);
    expect(bucketText({ ...bucket(Date.UTC(2026, 0, 3)), snapshots: 3, files: 12 }, 'day', 'history')).toMatch(/2026: 3 snapshots, 12 files changed$/);
    expect(bucketText(bucket(Date.UTC(2026, 0, 3, 14)), 'hour', 'file')).toMatch(/ – .*: 1 version$/);
    expect(barLength(100, 100, 20)).toBe(20);
    expect(barLength(25, 100, 20)).toBe(10);
    expect(barLength(1, 1_000_000, 20)).toBe(2);
    expect(barLength(0, 100, 20)).toBe(0);
  });

  it("holds the store's size to now, so the line reaches today", () => {
    const growth: StoreGrowth = {
      projectId: 'p',
      bucket: 'day',
      bucketMs: DAY,
      utcOffsetMinutes: 0,
      points: [
        { start: 0, storedBytes: 10, rawBytes: 30, blobs: 1 },
        { start: DAY, storedBytes: 15, rawBytes: 50, blobs: 2 },
      ],
    };
    expect(growthSeries(growth, 5 * DAY)).toEqual([
      [0, DAY, 5 * DAY],
      [10, 15, 15],
      [30, 50, 50],
    ]);
    expect(growthSeries({ ...growth, points: [] }, 5 * DAY)).toEqual([[], [], []]);
  });
});
