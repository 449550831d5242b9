import type { DensityBucket, GrowthPoint } from '../../../shared/contract/timeDensity.js';
import * as changeDensity from './changeDensity.js';
import type { Sql } from './sql.js';

// How much changed per hour or day, and the store's size over time (HistoryIndex.density,
// changeDensity.ts): the time scrubber's and the Store chart's data.

export class DensityIndex {
  constructor(private readonly sql: Sql) {}

  snapshotDensity(offsetMs: number): changeDensity.Counted<DensityBucket> {
    return changeDensity.snapshotDensity(this.sql, offsetMs);
  }

  pathDensity(path: string, offsetMs: number): changeDensity.Counted<DensityBucket> {
    return changeDensity.pathDensity(this.sql, path, offsetMs);
  }

  storeGrowth(offsetMs: number): changeDensity.Counted<GrowthPoint> {
    return changeDensity.storeGrowth(this.sql, offsetMs);
  }
}
