import { describe, expect, it } from 'vitest';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { openInViewer, startViewer } from './viewerHarness.js';

// "Undo this restore" from a restore's Timeline entry, against the real engine: the preview the
// engine answers names only the files that restore changed, and the undo puts them back with one
// call and one refresh, leaving a file edited since as it is.

describe('undo of a restore from its Timeline entry', () => {
  it('previews and puts back only what the restore changed, with one call and one refresh', async () => {
    const viewer = await startViewer();
    const root = tempDir();
    writeTree(root, { 'keep.txt': 'one\n', 'gone.txt': 'bye\n', 'other.txt': 'other\n' });
    const projectId = await openInViewer(viewer, root);
    await viewer.app.getState().loadTimeline();
    writeFileSync(join(root, 'keep.txt'), 'two\n');
    rmSync(join(root, 'gone.txt'));
    await viewer.engine.rescan(projectId);
    const baseline = viewer.engine.log(projectId)[0]!;
    await viewer.engine.restoreSnapshot(projectId, baseline.snapshotId);
    writeFileSync(join(root, 'other.txt'), 'edited later\n');
    await viewer.engine.rescan(projectId);
    await viewer.refreshed();

    const restore = viewer.app.getState().snapshots.find((s) => s.kind === 'restore')!;
    await viewer.app.getState().selectSnapshot(restore.snapshotId);
    viewer.app.getState().beginRestoreUndo();
    const ready = await viewer.until((s) => s.restoreUndo?.preview != null);
    expect(ready.restoreUndo!.preview).toMatchObject({ write: ['keep.txt'], recreate: [], delete: ['gone.txt'] });

    viewer.calls.length = 0;
    await viewer.app.getState().confirmRestoreUndo();
    await viewer.refreshed();
    expect(viewer.app.getState().restoreUndo).toBeNull();
    expect(readFileSync(join(root, 'keep.txt'), 'utf8')).toBe('two\n');
    expect(() => readFileSync(join(root, 'gone.txt'))).toThrow();
    expect(readFileSync(join(root, 'other.txt'), 'utf8')).toBe('edited later\n');
    expect([...viewer.calls].sort()).toEqual(['deletedFiles', 'fileTree', 'undoRestore']);
    expect(viewer.app.getState().toasts.at(-1)!.message).toBe('Undone: 2 files are back as before the restore.');
  });
});
