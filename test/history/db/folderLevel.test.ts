import { describe, expect, it, vi } from 'vitest';
import Database from 'better-sqlite3';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyDbPath } from '../../../electron/history/store/storeLayout.js';
import { latestUnder } from '../../../electron/history/db/folderLevel.js';
import { Sql } from '../../../electron/history/db/sql.js';
import { projectWithBaseline } from '../versions/versionsHelpers.js';

// One level of the file tree: a folder's direct children, answered from the folder's own range of
// versions_by_path. Neighbours whose names sort right beside the folder ('dir-a', 'dir.b', 'dir0')
// are the edges of that range and must stay out of it.

const FILES = {
  'a.txt': 'a',
  'B.txt': 'b',
  'file10.txt': '10',
  'file9.txt': '9',
  'dir/x.txt': 'x',
  'dir/sub/y.txt': 'y',
  'dir/sub/z.txt': 'z',
  'dir/Sub2/w.txt': 'w',
  'dir-a/q.txt': 'q',
  'dir.b/c.txt': 'c',
  'dir0.txt': '0',
};

function plan(dbFile: string, text: string, params: unknown[]): string {
  const db = new Database(dbFile, { readonly: true });
  try {
    return (db.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params) as { detail: string }[]).map((r) => r.detail).join(' | ');
  } finally {
    db.close();
  }
}

describe('folderLevel', () => {
  it('answers a folder with its direct children in tree order, counts and marks against the baseline', async () => {
    const { engine, root, projectId } = await projectWithBaseline(FILES);
    writeFileSync(join(root, 'dir/sub/y.txt'), 'changed');
    rmSync(join(root, 'dir/x.txt'));
    rmSync(join(root, 'dir/Sub2/w.txt'));
    await engine.rescan(projectId);

    const top = engine.folderLevel(projectId, '');
    expect(top.folder).toBe('');
    expect(top.folders.map((f) => [f.name, f.files, f.deleted, f.changed])).toEqual([
      ['dir', 2, 2, true],
      ['dir-a', 1, 0, false],
      ['dir.b', 1, 0, false],
    ]);
    expect(top.files.map((f) => f.name)).toEqual(['a.txt', 'B.txt', 'dir0.txt', 'file9.txt', 'file10.txt']);
    expect(top.files[0]).toMatchObject({ path: 'a.txt', type: 'file', size: 1, changed: false, hash: expect.any(String) });
    expect(top.deleted).toEqual([]);

    const dir = engine.folderLevel(projectId, 'dir');
    expect(dir.folders.map((f) => [f.path, f.files, f.deleted, f.changed])).toEqual([
      ['dir/sub', 2, 0, true],
      ['dir/Sub2', 0, 1, false],
    ]);
    expect(dir.files).toEqual([]);
    expect(dir.deleted.map((d) => [d.path, d.lastContents?.size])).toEqual([['dir/x.txt', 1]]);
    // The same deletion as deletedFiles describes it.
    expect(dir.deleted[0]).toEqual(engine.deleted(projectId).find((d) => d.path === 'dir/x.txt'));

    const sub = engine.folderLevel(projectId, 'dir/sub/');
    expect(sub.files.map((f) => [f.path, f.changed])).toEqual([
      ['dir/sub/y.txt', true],
      ['dir/sub/z.txt', false],
    ]);
    // At the baseline nothing differs from it, and the deleted files are still there.
    const then = engine.folderLevel(projectId, 'dir', 1);
    expect(then.files.map((f) => [f.path, f.changed])).toEqual([['dir/x.txt', false]]);
    expect(engine.folderLevel(projectId, 'nowhere')).toMatchObject({ folders: [], files: [], deleted: [] });
  });

  it("reads only the folder's range of the path index", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) files[`big/f${i}.txt`] = `big ${i}`;
    for (let i = 0; i < 3; i++) files[`small/f${i}.txt`] = `small ${i}`;
    const { engine, projectId, store } = await projectWithBaseline(files);

    // Rows read: what the range query hands back is the folder's own paths, not the project's.
    const sql = new Sql(new Database(historyDbPath(store.storeDir), { readonly: true }), 'test');
    expect(latestUnder(sql, 'small', Number.MAX_SAFE_INTEGER)).toHaveLength(3);
    expect(latestUnder(sql, '', Number.MAX_SAFE_INTEGER)).toHaveLength(203);
    expect(engine.folderLevel(projectId, 'small').files).toHaveLength(3);

    // The plan: a SEARCH of versions_by_path bounded on both sides, never a SCAN.
    const dbFile = historyDbPath(store.storeDir);
    const texts: string[] = [];
    const all = Sql.prototype.all;
    const spy = vi.spyOn(Sql.prototype, 'all').mockImplementation(function (this: Sql, text: string, ...params: unknown[]) {
      texts.push(text);
      return all.call(this, text, ...params);
    } as never);
    engine.folderLevel(projectId, 'small');
    spy.mockRestore();
    const text = texts.find((t) => t.includes('GROUP BY path'))!;
    const steps = plan(dbFile, text, ['small/', 'small0', 1]);
    expect(steps).toMatch(/SEARCH versions USING COVERING INDEX versions_by_path \(path>\? AND path<\?\)/);
    expect(steps).not.toMatch(/\bSCAN versions\b/);
  });
});
