import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { Sql } from '../../../electron/history/db/sql.js';
import { HIT_BATCH } from '../../../electron/history/db/searchHitRows.js';
import { SearchReader } from '../../../electron/history/db/searchReader.js';
import { searchHistory } from '../../../electron/history/search/searchHistory.js';
import { historyDbPath } from '../../../electron/history/store/storeLayout.js';
import type { SearchResult } from '../../../shared/contract/values.js';
import { notRacy, projectWithBaseline } from '../versions/versionsHelpers.js';

// A search asks SQLite for its hits' versions and latest versions a batch of hits at a time
// (search/answeredHits.ts, db/searchHitRows.ts), not a query or three per hit: counted as the
// statements run (Sql's reads, spied on; the real SQLite answers), on a real store and index.
// Half the files still hold the text, half lost it in a later version the index does not name.

const MAX_SIZE = 1 << 20;

/** A history where `n` files hold "needle" now and `n` held it in an older version only, its index built. */
async function history(n: number) {
  const spec: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    spec[`keep/k${i}.txt`] = `needle kept ${i}\n`;
    spec[`gone/g${i}.txt`] = `needle gone ${i}\n`;
  }
  const project = await projectWithBaseline(spec);
  for (let i = 0; i < n; i++) writeFileSync(join(project.root, `gone/g${i}.txt`), `nothing left ${i}\n`);
  await project.engine.rescan(project.projectId);
  notRacy(project.store);
  await project.engine.buildSearchIndex(project.projectId);
  return project;
}

/** The search for "needle" and the number of statements it ran. */
function searchCounting(storeDir: string, blobs: Parameters<typeof searchHistory>[0]['blobs']): { result: SearchResult; statements: number } {
  const reader = new SearchReader(historyDbPath(storeDir));
  let statements = 0;
  const spies = (['get', 'all', 'rows', 'iterateRows'] as const).map((name) => {
    const real = Sql.prototype[name] as (...args: unknown[]) => unknown;
    return vi.spyOn(Sql.prototype, name).mockImplementation(function (this: Sql, ...args: unknown[]) {
      statements++;
      return real.apply(this, args);
    } as never);
  });
  try {
    const result = searchHistory({ index: reader, blobs }, { query: 'needle', regex: false, caseSensitive: false, limit: 10_000 }, MAX_SIZE);
    return { result, statements };
  } finally {
    for (const spy of spies) spy.mockRestore();
    reader.close();
  }
}

describe("a search's statements do not grow with its hits", () => {
  it('runs as many for 40 hits as for 160, and a few more per further batch of hits', async () => {
    const runs = [];
    for (const n of [20, 80, HIT_BATCH + 50]) {
      const { store } = await history(n);
      const run = searchCounting(store.storeDir, store.blobs);
      const byPath = new Map(run.result.results.map((hit) => [hit.path, hit]));
      expect(byPath.size).toBe(2 * n);
      // Right answers from the batches: each hit's one version, and whether its file still holds the text.
      for (let i = 0; i < n; i++) {
        expect(byPath.get(`keep/k${i}.txt`)).toMatchObject({ stillPresent: true, versions: [expect.anything()] });
        expect(byPath.get(`gone/g${i}.txt`)).toMatchObject({ stillPresent: false, versions: [expect.anything()] });
      }
      runs.push(run.statements);
    }
    const [small, larger, batches] = runs;
    expect(larger).toBe(small);
    // Three batches where the others took one: versions, the line's segments, the latest
    // versions, the latest blobs' states and whether the index names them, for each.
    expect(batches! - small!).toBeLessThanOrEqual(2 * 5);
  });
});
