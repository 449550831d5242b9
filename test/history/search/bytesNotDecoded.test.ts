import { describe, expect, it } from 'vitest';
import { SearchReader } from '../../../electron/history/db/searchReader.js';
import { searchHistory } from '../../../electron/history/search/searchHistory.js';
import { historyDbPath } from '../../../electron/history/store/storeLayout.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { projectWithBaseline } from '../versions/versionsHelpers.js';

// A plain ASCII query decodes no blob to a string: it is matched on the bytes and only the lines
// holding a match are decoded (search/byteLiteral.ts). Counted on a real store and index as the
// texts decoded whole (trace `search.textsDecoded`) against the blobs scanned; a query with a
// character past ASCII, or a regex, decodes each blob it scans.

const MAX_SIZE = 1 << 20;

describe('the blobs a search decodes', () => {
  it('none for a plain ASCII query, each one scanned for any other', async () => {
    const spec: Record<string, string> = {};
    for (let i = 0; i < 30; i++) spec[`src/f${i}.c`] = `/* café ${i} */\nstatic int f${i}(void);\n${'x'.repeat(i * 300)}\n`;
    const { engine, projectId, store } = await projectWithBaseline(spec);
    await engine.buildSearchIndex(projectId);
    const reader = new SearchReader(historyDbPath(store.storeDir));
    const search = (query: string, regex = false) => {
      resetTrace();
      const result = searchHistory({ index: reader, blobs: store.blobs }, { query, regex, caseSensitive: false, limit: 100 }, MAX_SIZE);
      return { hits: result.results.length, scans: counter('search.blobScans'), decoded: counter('search.textsDecoded') };
    };
    try {
      expect(search('STATIC INT')).toEqual({ hits: 30, scans: 30, decoded: 0 });
      expect(search('static int f1')).toMatchObject({ decoded: 0 });
      expect(search('café')).toEqual({ hits: 30, scans: 30, decoded: 30 });
      expect(search('static\\s+int', true)).toEqual({ hits: 30, scans: 30, decoded: 30 });
    } finally {
      reader.close();
    }
  });
});
