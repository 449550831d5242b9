import type { BenchSuite } from './benchSuite.js';
import { median } from './stats.js';

// One round of a suite: every case set up, run `iterations` times, torn down. A row per case:
// its median time and the median of each extra figure it returned.

export interface CaseRow {
  suite: string;
  case: string;
  ms: number;
  [figure: string]: number | string;
}

export async function runSuiteOnce(suite: BenchSuite, only?: (name: string) => boolean): Promise<CaseRow[]> {
  const rows: CaseRow[] = [];
  for (const benchCase of await suite.cases()) {
    if (only && !only(benchCase.name)) continue;
    await benchCase.setup?.();
    const times: number[] = [];
    const figures = new Map<string, number[]>();
    try {
      for (let i = 0; i < (benchCase.iterations ?? 1); i++) {
        const started = performance.now();
        const extra = await benchCase.run();
        times.push(performance.now() - started);
        for (const [key, value] of Object.entries(extra ?? {})) {
          if (typeof value === 'number') figures.set(key, [...(figures.get(key) ?? []), value]);
        }
      }
    } finally {
      await benchCase.teardown?.();
    }
    const row: CaseRow = { suite: suite.name, case: benchCase.name, ms: median(times) };
    for (const [key, values] of figures) row[key] = median(values);
    rows.push(row);
  }
  return rows;
}
