import Database from 'better-sqlite3';
import { lstatSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { appendAll } from '../../../shared/largeArrays.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { isHindsightError } from '../../../shared/errors.js';
import { firstCopy } from '../../../electron/history/copy/firstCopy.js';
import { ProjectStore } from '../../../electron/history/project/projectStore.js';
import { CopyPool } from '../../../electron/history/store/copyPool.js';
import { CopySlots } from '../../../electron/history/store/copySlots.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { WALK_ENTRIES_PER_MESSAGE, WALK_MESSAGES_AHEAD } from '../../../electron/history/walk/walkMessages.js';
import type { WalkEntry } from '../../../electron/history/walk/walkFolder.js';
import { engineWith } from '../../helpers/engineWithPool.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree, type TreeSpec } from '../../helpers/writeTree.js';

// A first copy walks its folder on a copy worker: the history process's main thread makes no
// lstat of its own, and takes the entries in a few large messages (not one per folder), counted,
// never timed.

function tree(files: number, folders: number): string {
  const root = tempDir();
  const spec: TreeSpec = { '.gitignore': 'skipped/\n*.log\n', 'skipped/a.txt': 'x', 'note.log': 'y' };
  for (let i = 0; i < files; i++) spec[`d${i % folders}/f${i}.txt`] = `${i}\n`;
  writeTree(root, spec);
  return realpathSync(root);
}

describe('the first copy walk on a copy worker', () => {
  it('makes no lstat on the main thread and sends its entries 512 to a message', async () => {
    const pool = new CopyPool(new CopySlots(2), undefined, 2);
    const engine = engineWith(pool);
    const root = tree(2000, 80);
    resetTrace();
    const opened = await engine.open(root, { pool });
    // 2,000 files and the .gitignore; the ignored folder and log are left out, as before.
    expect(opened.files).toBe(2001);
    expect(counter('walk.lstat')).toBe(0);
    expect(counter('worker.walk.lstat')).toBe(2001);
    // 80 folders of 25 files: per folder it would be 80 messages.
    expect(counter('walk.entryMessages')).toBeLessThanOrEqual(Math.ceil(2001 / 512));
    const paths = engine.files(opened.projectId).map((f) => f.path);
    expect(paths).toContain('d79/f1999.txt');
    expect(paths.some((p) => p.startsWith('skipped/') || p.endsWith('.log'))).toBe(false);
  });

  it('stops the walk at a large-folder limit passed on the main thread, keeping nothing', async () => {
    const pool = new CopyPool(new CopySlots(2), undefined, 2);
    const store = await ProjectStore.open(tree(3000, 100), tempDir('hindsight-data-'));
    onTestFinished(async () => {
      store.close();
      await pool.close();
    });
    resetTrace();
    let error: unknown;
    try {
      await firstCopy(store, { pool, largeFolder: { files: 600, bytes: null } });
    } catch (caught) {
      error = caught;
    }
    expect(isHindsightError(error) && error.code).toBe('CONFIRM_LARGE_FOLDER');
    expect(store.index.snapshotReads.baselineId()).toBeUndefined();
    // Stopped early: the walk did not go on through the 3,000 files.
    expect(counter('walk.entryMessages')).toBeLessThan(Math.ceil(3001 / 512));
    // The worker is free again: the next copy (no limit) files everything.
    expect((await firstCopy(store, { pool })).files).toBe(3001);
  });

  it('runs at most a few messages ahead of a main thread that is slow to take them, so a stop ends it early', async () => {
    const pool = new CopyPool(new CopySlots(1), undefined, 1);
    onTestFinished(() => pool.close());
    const root = tree(10 * WALK_ENTRIES_PER_MESSAGE, 40);
    const nap = new Int32Array(new SharedArrayBuffer(4));
    resetTrace();
    const walked = pool.walk({ root }, () => {
      // A main thread busy elsewhere: the worker walks on meanwhile, as far as it may.
      Atomics.wait(nap, 0, 0, 300);
      throw new Error('enough');
    });
    await expect(walked).rejects.toThrow('enough');
    expect(counter('walk.entryMessages')).toBeLessThanOrEqual(1 + WALK_MESSAGES_AHEAD);
  });

  it("sends no stamp strings for regular files, and the baseline's stat rows hold the copy worker's own stamps", async () => {
    const pool = new CopyPool(new CopySlots(2), undefined, 2);
    const root = tree(300, 10);
    symlinkSync('d0/f0.txt', join(root, 'link'));
    const sent: WalkEntry[] = [];
    await pool.walk({ root }, (entries) => void appendAll(sent, entries));
    const files = sent.filter((e) => e.type === 'file');
    expect(files.length).toBeGreaterThan(300);
    expect(files.every((e) => e.mtimeNs === '' && e.ctimeNs === '' && e.ino === '')).toBe(true);
    const link = sent.find((e) => e.path === 'link')!;
    expect(link.ino).toBe(lstatSync(join(root, 'link'), { bigint: true }).ino.toString());

    const engine = engineWith(pool);
    const opened = await engine.open(root, { pool });
    const db = new Database(engine.store(opened.projectId).index.file, { readonly: true });
    try {
      const rows = db.prepare('SELECT path, mtime_ns AS m, ctime_ns AS c, ino FROM stat_cache').all() as { path: string; m: string; c: string; ino: string }[];
      expect(rows.length).toBe(opened.files);
      for (const row of rows) {
        const st = lstatSync(join(root, row.path), { bigint: true });
        expect([String(row.m), String(row.c), String(row.ino)]).toEqual([st.mtimeNs.toString(), st.ctimeNs.toString(), st.ino.toString()]);
      }
    } finally {
      db.close();
    }
  });
});
