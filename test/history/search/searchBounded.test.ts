import { describe, expect, it, vi } from 'vitest';
import { historyDbPath } from '../../../electron/history/store/storeLayout.js';
import { Sql } from '../../../electron/history/db/sql.js';
import { FILE_PAGE_ROWS } from '../../../electron/history/db/filePages.js';
import { SearchReader } from '../../../electron/history/db/searchReader.js';
import { SCANS_HELD } from '../../../electron/history/search/blobScans.js';
import { searchHistory, type SearchRequest } from '../../../electron/history/search/searchHistory.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { projectWithBaseline } from '../versions/versionsHelpers.js';
import { spyOnSqlAnswers } from '../../helpers/sqlAnswers.js';

// A search holds what it answers, never every match: it steps through the groups in the order it
// shows them, reads each one's blob before it takes the next group, and keeps what it learnt of at
// most SCANS_HELD blobs. Counted on a real store and SQLite with more matches than a page: rows
// stepped from SQLite and not yet taken in by a blob read, the largest answer of any read, the
// blob outcomes kept.

const MANY = 2_500;
const MAX_SIZE = 1 << 20;

function manyFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < MANY; i++) files[`d${i % 7}/f${i}.txt`] = `file ${i}\n`;
  return files;
}

interface Held {
  /** Rows SQLite stepped through in all. */
  stepped: number;
  /** The most rows stepped ahead of the blobs read: rows a search held before it looked at them. */
  ahead: number;
  /** The largest array any other read answered. */
  largestAnswer: number;
}

/** Runs `work` counting what the reads of Sql hand over (the real SQLite answers; the spies only count). */
function held(work: () => void): Held {
  const seen: Held = { stepped: 0, ahead: 0, largestAnswer: 0 };
  const readsBefore = counter('search.blobReads');
  const { iterateRows } = Sql.prototype;
  const spies = [
    vi.spyOn(Sql.prototype, 'iterateRows').mockImplementation(function* (this: Sql, text: string, ...params: unknown[]) {
      for (const row of iterateRows.call(this, text, ...params)) {
        seen.stepped++;
        seen.ahead = Math.max(seen.ahead, seen.stepped - (counter('search.blobReads') - readsBefore));
        yield row;
      }
    } as never),
    ...spyOnSqlAnswers((answer) => {
      if (Array.isArray(answer)) seen.largestAnswer = Math.max(seen.largestAnswer, answer.length);
    }),
  ];
  try {
    work();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return seen;
}

const request = (query: string, more: Partial<SearchRequest> = {}): SearchRequest => ({ query, regex: false, caseSensitive: false, limit: 10_000, ...more });

async function searchable() {
  const project = await projectWithBaseline(manyFiles());
  const reader = new SearchReader(historyDbPath(project.store.storeDir));
  const source = { index: reader, blobs: project.store.blobs };
  return { ...project, reader, search: (r: SearchRequest) => searchHistory(source, r, MAX_SIZE) };
}

describe('a search holds what it answers, not every match', () => {
  it('takes each group in after the one before it, whether the index is not built (the blobs it has not reached read too) or built', async () => {
    const { engine, projectId, reader, search } = await searchable();
    const cases: [string, () => Promise<unknown>][] = [
      ['no index', async () => {}],
      ['index built', () => engine.buildSearchIndex(projectId)],
    ];
    for (const [name, before] of cases) {
      await before();
      for (const query of ['fi', 'file']) {
        let answered = 0;
        const seen = held(() => {
          answered = search(request(query)).results.length;
        });
        expect(answered, `${name}, ${query}`).toBe(MANY);
        // One group in hand at a time: the old way stepped all 2,500 versions before a blob was read.
        expect(seen.ahead, `${name}, ${query}`).toBeLessThanOrEqual(1);
        expect(seen.largestAnswer, `${name}, ${query}`).toBeLessThanOrEqual(FILE_PAGE_ROWS);
      }
    }
    reader.close();
  });

  it('stops one group past the limit', async () => {
    const { reader, search } = await searchable();
    let result: ReturnType<typeof search> | undefined;
    const seen = held(() => {
      result = search(request('file', { limit: 10 }));
    });
    reader.close();
    expect(result!.results).toHaveLength(10);
    expect(result!.truncated).toBe(true);
    expect(seen.stepped).toBe(11);
  });

  it('keeps what it learnt of at most SCANS_HELD blobs however many it reads', async () => {
    const { reader, search } = await searchable();
    resetTrace();
    // Case kept: every blob is read, none holds the text.
    const result = search(request('FILE', { caseSensitive: true }));
    reader.close();
    expect(result.results).toEqual([]);
    expect(counter('search.blobReads')).toBe(MANY);
    expect(SCANS_HELD).toBeLessThan(MANY);
    expect(counter('search.scansHeld')).toBe(SCANS_HELD);
  });
});
