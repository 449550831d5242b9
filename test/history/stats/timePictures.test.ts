import { describe, expect, it, onTestFinished } from 'vitest';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { createDispatcher } from '../../../electron/history/dispatcher/dispatcher.js';
import type { SnapshotWrite } from '../../../electron/history/db/commitSnapshot.js';
import type { DensityBucket, GrowthPoint } from '../../../shared/contract.js';
import { DAY_MS, HOUR_MS } from '../../../shared/timeBuckets.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { sha256, writeTree } from '../../helpers/writeTree.js';

// The scrubber's counts and the Store chart's growth, counted by SQLite, against a straightforward
// count over every snapshot's changes (engine.log and snapshotChanges) on generated histories
// (fixed seeds): hours for a short history, days for a long one, at offsets where a local day
// starts on the half hour.

const PATHS = ['a.txt', 'b.txt', 'src/c.ts', 'src/d.ts', 'docs/e.md', 'f.bin'];

function random(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x1_0000_0000;
  };
}

/** `count` snapshots at random times over `spanMs` before `end`, each changing 1-3 paths (a deletion now and then, a rename of a.txt once). */
function generated(seed: number, count: number, spanMs: number, end: number): SnapshotWrite[] {
  const next = random(seed);
  const times = Array.from({ length: count }, () => end - Math.floor(next() * spanMs)).sort((a, b) => a - b);
  return times.map((at, i) => {
    if (i === Math.floor(count / 2))
      return {
        snapshot: { kind: 'change', at },
        versions: [
          { path: 'a.txt', hash: null, mode: 0o644, size: 0, type: null },
          { path: 'moved/a.txt', hash: sha256('moved'), mode: 0o644, size: 5, type: 'file' },
        ],
        blobs: [{ hash: sha256('moved'), size: 5 }],
        renames: [{ path: 'moved/a.txt', fromPath: 'a.txt' }],
      };
    const paths = new Set(Array.from({ length: 1 + Math.floor(next() * 3) }, () => PATHS[Math.floor(next() * PATHS.length)]!));
    const write: SnapshotWrite = { snapshot: { kind: next() < 0.1 ? 'checkpoint' : 'change', at }, versions: [], blobs: [] };
    for (const path of paths) {
      if (next() < 0.1) {
        (write.versions as unknown[]).push({ path, hash: null, mode: 0o644, size: 0, type: null });
        continue;
      }
      const text = `content ${Math.floor(next() * 40)}\n`.repeat(1 + Math.floor(next() * 50));
      const hash = sha256(text);
      (write.versions as unknown[]).push({ path, hash, mode: 0o644, size: text.length, type: 'file' });
      (write.blobs as unknown[]).push({ hash, size: text.length, storedSize: Math.ceil(text.length / 3) });
    }
    return write;
  });
}

async function historyOf(writes: SnapshotWrite[]): Promise<{ engine: HistoryEngine; projectId: string }> {
  const root = tempDir();
  writeTree(root, { 'a.txt': 'first a\n', 'src/c.ts': 'first c\n' });
  const engine = new HistoryEngine(tempDir('hindsight-data-'));
  onTestFinished(() => engine.close());
  const { projectId } = await engine.open(root);
  engine.store(projectId).index.importSnapshots(writes);
  return { engine, projectId };
}

function startOf(at: number, bucketMs: number, offsetMs: number): number {
  return Math.floor((at + offsetMs) / bucketMs) * bucketMs - offsetMs;
}

/** The buckets counted one snapshot at a time. */
function expectedDensity(engine: HistoryEngine, projectId: string, bucketMs: number, offsetMs: number): DensityBucket[] {
  const buckets = new Map<number, DensityBucket>();
  for (const s of engine.log(projectId)) {
    const start = startOf(s.at, bucketMs, offsetMs);
    const files = s.kind === 'baseline' ? 0 : engine.snapshotChanges(projectId, s.snapshotId).length;
    const b = buckets.get(start) ?? { start, snapshots: 0, files: 0, snapshotId: 0, versionId: null };
    buckets.set(start, { ...b, snapshots: b.snapshots + 1, files: b.files + files, snapshotId: Math.max(b.snapshotId, s.snapshotId) });
  }
  return [...buckets.values()].sort((a, b) => a.start - b.start);
}

/** Every blob by the earliest snapshot naming it, summed from the start. */
function expectedGrowth(engine: HistoryEngine, projectId: string, bucketMs: number, offsetMs: number, stored: Map<string, number>): GrowthPoint[] {
  const first = new Map<string, { at: number; size: number }>();
  for (const s of engine.log(projectId))
    for (const c of engine.snapshotChanges(projectId, s.snapshotId))
      if (c.hash !== null && (first.get(c.hash)?.at ?? Infinity) > s.at) first.set(c.hash, { at: s.at, size: c.size });
  const buckets = new Map<number, GrowthPoint>();
  for (const [hash, { at, size }] of first) {
    const start = startOf(at, bucketMs, offsetMs);
    const p = buckets.get(start) ?? { start, storedBytes: 0, rawBytes: 0, blobs: 0 };
    buckets.set(start, { start, blobs: p.blobs + 1, rawBytes: p.rawBytes + size, storedBytes: p.storedBytes + (stored.get(hash) ?? size) });
  }
  let [blobs, rawBytes, storedBytes] = [0, 0, 0];
  return [...buckets.values()]
    .sort((a, b) => a.start - b.start)
    .map((p) => ({ start: p.start, blobs: (blobs += p.blobs), rawBytes: (rawBytes += p.rawBytes), storedBytes: (storedBytes += p.storedBytes) }));
}

function storedSizes(writes: SnapshotWrite[]): Map<string, number> {
  return new Map(writes.flatMap((w) => w.blobs.map((b) => [b.hash, b.storedSize ?? b.size] as const)));
}

describe('changeDensity and storeGrowth', () => {
  const cases = [
    { name: 'a week by the hour, at UTC', seed: 7, count: 400, spanMs: 7 * DAY_MS, offset: 0, bucket: 'hour' as const },
    { name: 'ninety days by the day, at +05:30', seed: 11, count: 600, spanMs: 90 * DAY_MS, offset: 330, bucket: 'day' as const },
    { name: 'a year by the day, at -08:00', seed: 23, count: 900, spanMs: 365 * DAY_MS, offset: -480, bucket: 'day' as const },
  ];
  for (const c of cases) {
    it(`counts every snapshot's changes per bucket as one by one does: ${c.name}`, async () => {
      // The first copy is now; the generated snapshots end a day later, so the span is theirs.
      const writes = generated(c.seed, c.count, c.spanMs, Date.now() + DAY_MS);
      const { engine, projectId } = await historyOf(writes);
      const bucketMs = c.bucket === 'hour' ? HOUR_MS : DAY_MS;
      const offsetMs = c.offset * 60_000;

      const density = engine.changeDensity(projectId, undefined, c.offset);
      expect(density).toMatchObject({ projectId, path: null, bucket: c.bucket, bucketMs, utcOffsetMinutes: c.offset });
      expect(density.buckets).toEqual(expectedDensity(engine, projectId, bucketMs, offsetMs));
      expect(density.buckets.reduce((n, b) => n + b.snapshots, 0)).toBe(c.count + 1);

      const growth = engine.storeGrowth(projectId, c.offset);
      expect(growth).toMatchObject({ bucket: c.bucket, bucketMs });
      expect(growth.points).toEqual(expectedGrowth(engine, projectId, bucketMs, offsetMs, storedSizes(writes)));
      // The last point is the whole store, as the Store tab's cards count it.
      const { density: totals, blobs } = engine.storeStats(projectId, 0);
      expect(growth.points.at(-1)).toEqual({ start: expect.any(Number), blobs, rawBytes: totals.rawBytes, storedBytes: totals.storedBytes });
    });
  }

  it("counts one file's versions per bucket, through a rename (moved/a.txt goes on with a.txt's), each with its newest version", async () => {
    const writes = generated(5, 300, 30 * DAY_MS, Date.now() + DAY_MS);
    const { engine, projectId } = await historyOf(writes);
    for (const path of ['moved/a.txt', 'src/c.ts', 'f.bin']) {
      const versions = engine.versions(projectId, path);
      const expected = new Map<number, DensityBucket>();
      for (const v of versions) {
        const start = startOf(v.at, DAY_MS, 0);
        const b = expected.get(start) ?? { start, snapshots: 0, files: 0, snapshotId: 0, versionId: 0 };
        expected.set(start, {
          start,
          snapshots: b.snapshots + 1,
          files: b.files + 1,
          snapshotId: Math.max(b.snapshotId, v.snapshotId),
          versionId: Math.max(b.versionId!, v.versionId),
        });
      }
      const density = engine.changeDensity(projectId, path);
      expect(density.path).toBe(path);
      expect(density.buckets).toEqual([...expected.values()].sort((a, b) => a.start - b.start));
      expect(density.buckets.reduce((n, b) => n + b.snapshots, 0)).toBe(versions.length);
    }
  });

  it('answers no bucket for a path never recorded, and refuses a path outside the project', async () => {
    const { engine, projectId } = await historyOf([]);
    expect(engine.changeDensity(projectId, 'never.txt').buckets).toEqual([]);
    expect(() => engine.changeDensity(projectId, '../outside')).toThrow(expect.objectContaining({ code: expect.any(String) }));
  });

  it('answers through the dispatcher, which refuses an offset past ±14 hours and a path outside the project as BAD_REQUEST', async () => {
    const { engine, projectId } = await historyOf(generated(3, 20, 2 * DAY_MS, Date.now() + DAY_MS));
    const dispatcher = createDispatcher(engine, { watch: false });
    onTestFinished(() => dispatcher.close());
    const ask = async (call: string, args: object) => (await dispatcher.handle({ kind: 'call', id: 1, call, args } as never)).result;
    expect(await ask('changeDensity', { projectId, utcOffsetMinutes: 60 })).toEqual({ ok: true, value: engine.changeDensity(projectId, undefined, 60) });
    expect(await ask('storeGrowth', { projectId })).toEqual({ ok: true, value: engine.storeGrowth(projectId, 0) });
    for (const args of [
      { projectId, utcOffsetMinutes: 900 },
      { projectId, utcOffsetMinutes: 1.5 },
      { projectId, path: '../outside' },
      { projectId, path: '/etc/passwd' },
    ])
      expect(await ask('changeDensity', args)).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(await ask('storeGrowth', { projectId, utcOffsetMinutes: -841 })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
  });
});
