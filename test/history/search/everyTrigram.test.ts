import { describe, expect, it } from 'vitest';
import { SearchReader } from '../../../electron/history/db/searchReader.js';
import { MAX_TRIGRAMS, trigramQuery } from '../../../electron/history/db/searchIndex.js';
import { searchHistory } from '../../../electron/history/search/searchHistory.js';
import { historyDbPath } from '../../../electron/history/store/storeLayout.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { projectWithBaseline } from '../versions/versionsHelpers.js';

// The index keeps which trigrams a blob holds, not where: a literal is asked by every one of its
// trigrams (db/searchIndex.ts trigramQuery), so a file holding its words apart ("static unsigned
// int" for "static int": every third trigram of it, not "c i") is not named and not read.
// Counted on a real store and index as the blob reads (trace `search.blobReads`).

describe('a literal asked of the index by every trigram', () => {
  it('reads only the files holding it, not those holding every third trigram of it', async () => {
    const spec: Record<string, string> = {};
    for (let i = 0; i < 5; i++) spec[`hit${i}.c`] = `static int f${i};\n`;
    for (let i = 0; i < 20; i++) spec[`apart${i}.c`] = `static unsigned int g${i};\n`;
    const { engine, projectId, store } = await projectWithBaseline(spec);
    await engine.buildSearchIndex(projectId);
    const reader = new SearchReader(historyDbPath(store.storeDir));
    resetTrace();
    try {
      const result = searchHistory({ index: reader, blobs: store.blobs }, { query: 'static int', regex: false, caseSensitive: false, limit: 100 }, 1 << 20);
      expect(result.indexed).toBe(true);
      expect(result.results.map((hit) => hit.path).sort()).toEqual(['hit0.c', 'hit1.c', 'hit2.c', 'hit3.c', 'hit4.c']);
    } finally {
      reader.close();
    }
    expect(counter('search.blobReads')).toBe(5);
  });

  it('asks each trigram once, and past MAX_TRIGRAMS every third one and the last', () => {
    expect(trigramQuery('static int')).toBe('"sta" AND "tat" AND "ati" AND "tic" AND "ic " AND "c i" AND " in" AND "int"');
    expect(trigramQuery('aaaa"a')).toBe('"aaa" AND "aa""" AND "a""a"');
    const long = 'abcdefghijklmnopqrstuvwxyz';
    expect(long.length - 2).toBeGreaterThan(MAX_TRIGRAMS);
    expect(trigramQuery(long)).toBe(['abc', 'def', 'ghi', 'jkl', 'mno', 'pqr', 'stu', 'vwx', 'xyz'].map((t) => `"${t}"`).join(' AND '));
  });
});
