import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { historyDbPath } from '../../../electron/history/store/storeLayout.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { notRacy, projectWithBaseline } from './versionsHelpers.js';

// A store whose renames were recorded by the line-based scoring of before (two unrelated
// one-line files "50% alike", a deletion paired with the wrong addition) has them scored again
// as git scores them the first time this build opens it, and only then. The old links are
// written into a real history.db, as the older build left them.

describe('renames scored again on open', () => {
  it('a store with wrong renames gets git’s, once', async () => {
    const project = await projectWithBaseline({
      'alpha.txt': 'the first unrelated sentence\n',
      'a.md': 'same bytes\n',
      'b.md': 'other bytes\n',
      'kept.txt': 'k\n',
    });
    const { root, engine, projectId, store } = project;
    // Snapshot 1: alpha.txt gone, omega.txt new, nothing alike.
    rmSync(join(root, 'alpha.txt'));
    writeFileSync(join(root, 'omega.txt'), 'quite another line\n');
    notRacy(store);
    const unrelated = (await engine.rescan(projectId)).snapshotId!;
    // Snapshot 2: a.md moved to c.md (the same bytes), b.md deleted.
    renameSync(join(root, 'a.md'), join(root, 'c.md'));
    rmSync(join(root, 'b.md'));
    notRacy(store);
    const moved = (await engine.rescan(projectId)).snapshotId!;
    expect(store.index.renames.renamesIn(unrelated)).toEqual([]);
    expect(store.index.renames.renamesIn(moved)).toEqual([{ path: 'c.md', fromPath: 'a.md' }]);
    const file = historyDbPath(store.storeDir);
    engine.close();

    // What the line-based scoring left: omega.txt from alpha.txt, c.md from b.md; no mark of git's scoring.
    const db = new Database(file);
    const versionId = (snapshotId: number, path: string) =>
      (db.prepare('SELECT id FROM versions WHERE snapshot_id = ? AND path = ?').get(snapshotId, path) as { id: number }).id;
    db.prepare('INSERT INTO version_renames (version_id, path, from_path) VALUES (?, ?, ?)').run(versionId(unrelated, 'omega.txt'), 'omega.txt', 'alpha.txt');
    db.prepare('UPDATE version_renames SET from_path = ? WHERE path = ?').run('b.md', 'c.md');
    db.prepare("DELETE FROM meta WHERE key = 'renames.scoring'").run();
    db.close();

    resetTrace();
    const again = new HistoryEngine(engine.dataDir);
    onTestFinished(() => again.close());
    const { projectId: id } = await again.open(root);
    const reopened = again.store(id);
    expect(reopened.index.renames.renamesIn(unrelated)).toEqual([]);
    expect(reopened.index.renames.renamesIn(moved)).toEqual([{ path: 'c.md', fromPath: 'a.md' }]);
    expect(again.versions(id, 'omega.txt').map((v) => [v.path, v.renamedFrom])).toEqual([['omega.txt', null]]);
    expect(again.versions(id, 'c.md').map((v) => [v.path, v.renamedFrom])).toEqual([
      ['a.md', null],
      ['c.md', 'a.md'],
    ]);
    // The two snapshots holding a rename were read; the next open reads none.
    expect(counter('renames.rescored')).toBe(2);
    again.close();
    const third = new HistoryEngine(engine.dataDir);
    onTestFinished(() => third.close());
    await third.open(root);
    expect(counter('renames.rescored')).toBe(2);
  });
});
