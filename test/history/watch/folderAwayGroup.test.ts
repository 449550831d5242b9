import { describe, expect, it } from 'vitest';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isHindsightError } from '../../../shared/errors.js';
import { projectWithBaseline } from '../versions/versionsHelpers.js';
import { until } from '../../helpers/until.js';

// A folder's watch follows it when it is moved away (inotify watches the folder, not its path), so
// a file written there afterwards makes a change group whose file is missing at the project's
// path: that is the folder gone, not the file deleted, and nothing is recorded.

describe('a change group of a folder that went away', () => {
  it('fails with FOLDER_VANISHED and records no deletion', async () => {
    const { engine, root, projectId, store } = await projectWithBaseline({ 'a.txt': 'one', 'b.txt': 'two' });
    const before = store.index.snapshotReads.latestSnapshotId();
    const errors: unknown[] = [];
    const groups: unknown[] = [];
    // Started from a rescan's walk, as a catch-up does: no doubt of its own to rescan the folder.
    await engine.rescan(projectId);
    await engine.watch(projectId, { quietMs: 50, maxGroupMs: 5000, onError: (e) => errors.push(e), onGroup: (g) => groups.push(g) });
    const away = `${root}.away`;
    renameSync(root, away);
    writeFileSync(join(away, 'a.txt'), 'edited while away');
    await until(() => errors.length > 0 || groups.length > 0);
    await engine.unwatch(projectId);
    renameSync(away, root);
    expect(groups).toEqual([]);
    expect(new Set(errors.map((e) => (isHindsightError(e) ? e.code : e)))).toEqual(new Set(['FOLDER_VANISHED']));
    expect(store.index.snapshotReads.latestSnapshotId()).toBe(before);
  });
});
