import { describe, expect, it, onTestFinished } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setSetting } from '../../../electron/history/config/projectEdits.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { prepareChanges } from '../../../electron/history/versions/recordPaths.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { notRacy } from './versionsHelpers.js';

describe('the maxFileSize setting', () => {
  it('leaves new files over the limit out, and keeps tracking files that already have a history', async () => {
    const engine = new HistoryEngine(tempDir('hindsight-data-'));
    onTestFinished(() => engine.close());
    const root = tempDir();
    writeTree(root, { 'small.txt': 'x'.repeat(100), 'huge.bin': 'y'.repeat(5000), 'grows.txt': 'z'.repeat(100) });
    await engine.config.editConfig(setSetting('maxFileSize', 1000));

    const { projectId } = await engine.open(root);
    expect(engine.files(projectId).map((f) => f.path)).toEqual(['grows.txt', 'small.txt']);

    const store = engine.store(projectId);
    notRacy(store);
    writeFileSync(join(root, 'grows.txt'), 'z'.repeat(4000));
    writeFileSync(join(root, 'new-huge.bin'), 'w'.repeat(3000));
    await engine.open(root);
    const files = Object.fromEntries(engine.files(projectId).map((f) => [f.path, f.size]));
    expect(files).toEqual({ 'grows.txt': 4000, 'small.txt': 100 });

    // The live recorder's path (a change group of named paths) follows the same rule.
    const prepared = await prepareChanges(store, ['new-huge.bin', 'grows.txt'], undefined, undefined, 1000);
    expect(prepared.versions.map((v) => v.path)).toEqual([]);
    writeFileSync(join(root, 'grows.txt'), 'z'.repeat(4500));
    const again = await prepareChanges(store, ['new-huge.bin', 'grows.txt'], undefined, undefined, 1000);
    expect(again.versions.map((v) => v.path)).toEqual(['grows.txt']);
  });
});
