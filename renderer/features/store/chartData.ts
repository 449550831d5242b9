import type uPlot from 'uplot';
import type { SpaceHolder, StoreGrowth } from '../../../shared/contract.js';

// The Store charts' data in uPlot's form (one array of x values, then one per series).

/**
 * Bytes on disk and as the files are at each bucket's start (ms), summed from the start, held to
 * `now`: the store stays that size until something new is stored, so the line reaches today (and a
 * history of one bucket still draws a line).
 */
export function growthSeries(growth: StoreGrowth, now: number): uPlot.AlignedData {
  const last = growth.points.at(-1);
  const points = last && last.start < now ? [...growth.points, { ...last, start: now }] : growth.points;
  return [points.map((p) => p.start), points.map((p) => p.storedBytes), points.map((p) => p.rawBytes)];
}

/** The files holding the most bytes, by rank (0 the most), and their bytes. */
export function holderSeries(holders: readonly SpaceHolder[]): uPlot.AlignedData {
  return [holders.map((_h, i) => i), holders.map((h) => h.bytes)];
}
