import { describe, expect, it } from 'vitest';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { counter } from '../../../electron/history/trace.js';
import { projectWithBaseline } from './versionsHelpers.js';

// A rescan that finds nothing changed does nothing per path beyond comparing its stat: which
// folders hold no file is asked of the walk's paths only when a folder is new, and the reopen's
// totals are counted in SQL, no file row read.

describe('a rescan of an unchanged folder', () => {
  it('asks no walked path whether a folder is empty, unless a folder is new', async () => {
    const { engine, root, projectId } = await projectWithBaseline({ 'a/one.txt': '1', 'b/c/two.txt': '2' });
    const checks = counter('rescan.emptyFolderCheck');
    const unchanged = await engine.rescan(projectId);
    expect(unchanged.snapshotId).toBeNull();
    expect(counter('rescan.emptyFolderCheck') - checks).toBe(0);

    mkdirSync(join(root, 'b/empty'));
    await engine.rescan(projectId);
    expect(counter('rescan.emptyFolderCheck') - checks).toBe(1);
  });
});

describe('a reopen', () => {
  it('answers its files and bytes without reading a file row, deletions left out', async () => {
    const { engine, root } = await projectWithBaseline({ 'a/one.txt': '1', 'b/c/two.txt': '22', 'gone.txt': '333' });
    rmSync(join(root, 'gone.txt'));
    const rows = counter('index.fileRows');
    const reopened = await engine.open(root);
    expect(reopened.firstCopy).toBe(false);
    expect([reopened.files, reopened.bytes]).toEqual([2, 3]);
    expect(counter('index.fileRows') - rows).toBe(0);
  });
});
