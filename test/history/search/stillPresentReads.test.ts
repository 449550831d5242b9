import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SearchReader } from '../../../electron/history/db/searchReader.js';
import { SCANS_HELD } from '../../../electron/history/search/blobScans.js';
import { searchHistory } from '../../../electron/history/search/searchHistory.js';
import { historyDbPath } from '../../../electron/history/store/storeLayout.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { notRacy, projectWithBaseline } from '../versions/versionsHelpers.js';

// Whether a hit's file still holds the text is its latest version's answer. In a long answer the
// latest versions come first (newest first) and their matches are forgotten (SCANS_HELD) before
// the older versions come up; the search keeps which blobs held the text, so no latest version
// is read twice. Counted on a real store and index as the blob reads (trace `search.blobReads`).

const FILES = SCANS_HELD + 100;

describe('a latest version asked about for older hits', () => {
  it('is read once however many blobs were read after it', async () => {
    const spec: Record<string, string> = {};
    for (let i = 0; i < FILES; i++) spec[`d${i % 9}/f${i}.txt`] = `needle ${i}\n`;
    const { engine, projectId, root, store } = await projectWithBaseline(spec);
    for (let i = 0; i < FILES; i++) writeFileSync(join(root, `d${i % 9}/f${i}.txt`), `needle ${i} again\n`);
    await engine.rescan(projectId);
    notRacy(store);
    await engine.buildSearchIndex(projectId);
    const reader = new SearchReader(historyDbPath(store.storeDir));
    resetTrace();
    try {
      const result = searchHistory({ index: reader, blobs: store.blobs }, { query: 'needle', regex: false, caseSensitive: false, limit: 10_000 }, 1 << 20);
      expect(result.results).toHaveLength(2 * FILES);
      expect(result.results.every((hit) => hit.stillPresent)).toBe(true);
    } finally {
      reader.close();
    }
    expect(counter('search.blobReads')).toBe(2 * FILES);
  });
});
