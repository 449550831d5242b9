import { describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { counter } from '../../../electron/history/trace.js';
import { projectWithBaseline } from './versionsHelpers.js';

// A rescan that finds nothing changed does nothing per path beyond comparing its stat: which
// folders hold no file is asked of the walk's paths only when a folder is new.

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
