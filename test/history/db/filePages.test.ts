import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { historyDbPath } from '../../../electron/history/store/storeLayout.js';
import { Sql } from '../../../electron/history/db/sql.js';
import { compareStoredPaths, FILE_PAGE_ROWS, filePagesAlong } from '../../../electron/history/db/filePages.js';
import { HIT_BATCH } from '../../../electron/history/db/searchHitRows.js';
import { snapshotPages } from '../../../electron/history/db/snapshotQueries.js';
import { SearchReader } from '../../../electron/history/db/searchReader.js';
import { searchHistory } from '../../../electron/history/search/searchHistory.js';
import { projectWithBaseline } from '../versions/versionsHelpers.js';
import { spyOnSqlAnswers } from '../../helpers/sqlAnswers.js';
import type { FileEntry } from '../../../shared/history.js';

// `files`, `log` and `search` over a long history read a page (or a row) at a time: no statement
// hands back every file or version of the project in one array. Counted with a spy on Sql's
// readers (the real SQLite answers; the spy only counts the rows of each answer).

const MANY = 2_500;

function manyFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < MANY; i++) files[`d${i % 7}/sub${i % 3}/f${i}.txt`] = `file ${i}\n`;
  files['top.txt'] = 'top\n';
  return files;
}

/** The largest answer any Sql read gave while `work` ran. */
function largestAnswer(work: () => void): number {
  let largest = 0;
  const spies = spyOnSqlAnswers((rows) => {
    if (Array.isArray(rows)) largest = Math.max(largest, rows.length);
  });
  try {
    work();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return largest;
}

describe('files a page at a time', () => {
  it('gives every file in path order, each page at most FILE_PAGE_ROWS, no read larger', async () => {
    const { engine, projectId } = await projectWithBaseline(manyFiles());
    const whole = engine.files(projectId);
    expect(whole).toHaveLength(MANY + 1);

    const pages: FileEntry[][] = [];
    const largest = largestAnswer(() => {
      for (const page of engine.filePages(projectId)) pages.push(page);
    });
    expect(pages.length).toBeGreaterThanOrEqual(Math.ceil(MANY / FILE_PAGE_ROWS));
    for (const page of pages) expect(page.length).toBeLessThanOrEqual(FILE_PAGE_ROWS);
    expect(largest).toBeLessThanOrEqual(FILE_PAGE_ROWS);
    expect(pages.flat()).toEqual(whole);
  });

  it('hides deleted files and keeps each path once across page ends, for any page size', async () => {
    const { engine, projectId, store, root } = await projectWithBaseline(manyFiles());
    const { rmSync, writeFileSync } = await import('node:fs');
    for (let i = 0; i < MANY; i += 5) rmSync(`${root}/d${i % 7}/sub${i % 3}/f${i}.txt`);
    // Files added between the baseline's paths, so two segments' pages end at different paths.
    for (let i = 1; i < MANY; i += 8) writeFileSync(`${root}/d${i % 7}/sub${i % 3}/f${i}b.txt`, `added ${i}\n`);
    await engine.rescan(projectId);
    const sql = new Sql(new Database(historyDbPath(store.storeDir), { readonly: true }), 'test');
    const segments = [{ line: 0, upTo: Number.MAX_SAFE_INTEGER }];
    const expected = engine.files(projectId);
    expect(expected).toHaveLength(MANY - MANY / 5 + 1 + Math.ceil((MANY - 1) / 8));
    for (const size of [1, 7, 499, 5000]) {
      const pages = [...filePagesAlong(sql, segments, size)];
      expect(pages.flat()).toEqual(expected);
      for (const page of pages) expect(page.length).toBeLessThanOrEqual(size);
    }
    // Two segments of one line stand in for a forked line: the first segment's versions win (the
    // baseline's, deleted files included), the paths only the second has come from it.
    const baseline = store.index.snapshotReads.baselineId()!;
    const forked = [
      ...filePagesAlong(
        sql,
        [
          { line: 0, upTo: baseline },
          { line: 0, upTo: Number.MAX_SAFE_INTEGER },
        ],
        13,
      ),
    ].flat();
    const added = expected.filter((f) => f.path.endsWith('b.txt'));
    expect(forked).toEqual([...engine.files(projectId, baseline), ...added].sort((a, b) => compareStoredPaths(a.path, b.path)));
  });

  it("reads the empty folders without every file's row at once", async () => {
    const { engine, projectId, root } = await projectWithBaseline(manyFiles());
    const { mkdirSync } = await import('node:fs');
    mkdirSync(`${root}/empty/inner`, { recursive: true });
    await engine.rescan(projectId);
    let folders: { path: string }[] = [];
    const largest = largestAnswer(() => {
      folders = engine.emptyFolders(projectId);
    });
    expect(folders.map((f) => f.path)).toEqual(['empty/inner']);
    expect(largest).toBeLessThanOrEqual(FILE_PAGE_ROWS);
  });
});

describe('log a page at a time', () => {
  it('gives every snapshot oldest first in pages of the size asked', async () => {
    const { engine, projectId, store } = await projectWithBaseline({ 'a.txt': 'a' });
    for (let i = 0; i < 6; i++) await engine.checkpoint(projectId, `mark ${i}`);
    const sql = new Sql(new Database(historyDbPath(store.storeDir), { readonly: true }), 'test');
    const pages = [...snapshotPages(sql, 3)];
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual(engine.log(projectId));
    expect([...engine.logPages(projectId)].flat()).toEqual(engine.log(projectId));
  });
});

describe('search steps through the versions', () => {
  it('never reads every file version into one array', async () => {
    const { engine, projectId, store } = await projectWithBaseline(manyFiles());
    const reader = new SearchReader(historyDbPath(store.storeDir));
    const source = { index: reader, blobs: store.blobs };
    // Two characters: no index can narrow it, every file version is read.
    let hits = 0;
    const largest = largestAnswer(() => {
      hits = searchHistory(source, { query: 'fi', regex: false, caseSensitive: false, limit: 10_000 }, 1 << 20).results.length;
    });
    reader.close();
    expect(hits).toBe(MANY);
    // Hits are answered a batch at a time (db/searchHitRows.ts): a batch's rows, never every version.
    expect(largest).toBeLessThanOrEqual(HIT_BATCH);
    expect(engine.files(projectId)).toHaveLength(MANY + 1);
  });
});
