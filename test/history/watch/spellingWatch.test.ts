import { expect, it, onTestFinished } from 'vitest';
import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { describeOnFoldFs } from '../../helpers/foldMount.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { notRacy } from '../versions/versionsHelpers.js';
import { until } from '../../helpers/until.js';

// The live watcher on a folder whose names fold: a case-only rename it hears is a rename (the old
// spelling, still found by lstat there, is gone), and a later edit is recorded once.

describeOnFoldFs('the live watcher where names fold', (mount) => {
  it('records a case-only rename as one file going on, and each later edit once', async () => {
    const root = mkdtempSync(join(mount().dir, 'watch-'));
    writeTree(root, { 'README.md': 'one\n', 'other.txt': 'x\n' });
    const engine = new HistoryEngine(tempDir('hindsight-data-'));
    onTestFinished(async () => {
      await engine.unwatchAll();
      engine.close();
    });
    const { projectId } = await engine.open(root);
    notRacy(engine.store(projectId));
    const { index } = engine.store(projectId);
    const groups: unknown[] = [];
    await engine.watch(projectId, { quietMs: 100, maxGroupMs: 1000, onGroup: (g) => groups.push(g) });
    await until(() => groups.length >= 1);
    const present = () =>
      index.files
        .filesAt()
        .map((f) => f.path)
        .sort();

    renameSync(join(root, 'README.md'), join(root, 'readme.md'));
    await until(() => present().includes('readme.md'));
    expect(present()).toEqual(['other.txt', 'readme.md']);
    writeFileSync(join(root, 'readme.md'), 'two\n');
    await until(() => engine.versions(projectId, 'readme.md').length === 3);
    expect(engine.versions(projectId, 'readme.md').map((v) => [v.path, v.renamedFrom])).toEqual([
      ['README.md', null],
      ['readme.md', 'README.md'],
      ['readme.md', null],
    ]);
    expect(present()).toEqual(['other.txt', 'readme.md']);
  });
});
