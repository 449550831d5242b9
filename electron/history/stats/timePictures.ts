import type { ChangeDensity, StoreGrowth } from '../../../shared/contract/timeDensity.js';
import type { ProjectStore } from '../project/projectStore.js';

// The viewer's pictures of a history: how much changed per hour or day (the time scrubber beside
// the Timeline, or beside one file's versions) and the store's size over time (the Store view's
// chart), counted by the index in SQL (db/changeDensity.ts).

export function changeDensity(store: ProjectStore, path: string | undefined, utcOffsetMinutes: number): ChangeDensity {
  const offsetMs = utcOffsetMinutes * 60_000;
  const counted = path === undefined ? store.index.density.snapshotDensity(offsetMs) : store.index.density.pathDensity(path, offsetMs);
  return { projectId: store.projectId, path: path ?? null, bucket: counted.bucket, bucketMs: counted.bucketMs, utcOffsetMinutes, buckets: counted.rows };
}

export function storeGrowth(store: ProjectStore, utcOffsetMinutes: number): StoreGrowth {
  const counted = store.index.density.storeGrowth(utcOffsetMinutes * 60_000);
  return { projectId: store.projectId, bucket: counted.bucket, bucketMs: counted.bucketMs, utcOffsetMinutes, points: counted.rows };
}
