import { describe, expect, it } from 'vitest';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { openInViewer, startViewer } from './viewerHarness.js';

// The timeline slice against the real engine: the snapshots newest first, what one snapshot
// changed (asked of the engine, not worked out from two file trees), new snapshots arriving as
// events, a named checkpoint, and a snapshot restore with its Undo.

async function timeline() {
  const viewer = await startViewer();
  const root = tempDir();
  writeTree(root, { 'keep.txt': 'one\n', 'gone.txt': 'bye\n', 'dir/a.txt': 'a\n' });
  const projectId = await openInViewer(viewer, root);
  await viewer.app.getState().loadTimeline();
  return { viewer, root, projectId };
}

describe('the timeline slice', () => {
  it('shows what a snapshot changed with one call to the engine', async () => {
    const { viewer, root, projectId } = await timeline();
    writeFileSync(join(root, 'keep.txt'), 'two\n');
    rmSync(join(root, 'gone.txt'));
    writeFileSync(join(root, 'new.txt'), 'new\n');
    await viewer.engine.rescan(projectId);
    await viewer.refreshed();
    const [latest] = viewer.app.getState().snapshots;
    expect(latest!.kind).toBe('change');

    viewer.calls.length = 0;
    await viewer.app.getState().selectSnapshot(latest!.snapshotId);
    expect(viewer.calls).toEqual(['snapshotChanges']);
    expect(viewer.app.getState().snapshotChanges!.map((c) => [c.path, c.change])).toEqual([
      ['gone.txt', 'deleted'],
      ['keep.txt', 'modified'],
      ['new.txt', 'added'],
    ]);
  });

  it('puts a snapshot recorded elsewhere and a named checkpoint on top, from the events, never reading the log again', async () => {
    const { viewer, root, projectId } = await timeline();
    viewer.calls.length = 0;
    writeFileSync(join(root, 'keep.txt'), 'changed by hand\n');
    await viewer.engine.rescan(projectId);
    await viewer.refreshed();
    expect(await viewer.app.getState().createCheckpoint('before lunch')).toBe(true);
    await viewer.refreshed();
    expect(viewer.app.getState().snapshots.map((s) => [s.kind, s.label])).toEqual([
      ['checkpoint', 'before lunch'],
      ['change', null],
      ['baseline', 'Baseline'],
    ]);
    expect(viewer.app.getState().snapshots).toEqual(viewer.engine.log(projectId).reverse());
    expect(viewer.calls).not.toContain('log');
    // The change refreshed the root level once (it deleted no file); the checkpoint changed none.
    expect([...viewer.calls].sort()).toEqual(['createCheckpoint', 'fileTree']);
  });

  it('restores the project to a snapshot with one call and one refresh, and undoes it', async () => {
    const { viewer, root, projectId } = await timeline();
    writeFileSync(join(root, 'keep.txt'), 'two\n');
    rmSync(join(root, 'gone.txt'));
    await viewer.engine.rescan(projectId);
    await viewer.refreshed();
    const baseline = viewer.app.getState().snapshots.at(-1)!;
    await viewer.app.getState().selectSnapshot(baseline.snapshotId);
    viewer.app.getState().beginSnapshotRestore('project');
    await viewer.until((s) => s.snapshotRestore?.preview !== null && s.snapshotRestore?.preview !== undefined);
    expect(viewer.app.getState().snapshotRestore!.preview).toMatchObject({ write: ['keep.txt'], recreate: ['gone.txt'] });

    viewer.calls.length = 0;
    await viewer.app.getState().confirmSnapshotRestore();
    await viewer.refreshed();
    expect(readFileSync(join(root, 'keep.txt'), 'utf8')).toBe('one\n');
    expect(readFileSync(join(root, 'gone.txt'), 'utf8')).toBe('bye\n');
    expect([...viewer.calls].sort()).toEqual(['deletedFiles', 'fileTree', 'restoreSnapshot']);
    expect(viewer.app.getState().snapshots[0]!.kind).toBe('restore');

    const undo = viewer.app.getState().toasts.at(-1)!.action!;
    expect(undo.label).toBe('Undo');
    undo.run();
    await viewer.until((s) => s.toasts.some((t) => t.message.startsWith('Undone')));
    await viewer.refreshed();
    expect(readFileSync(join(root, 'keep.txt'), 'utf8')).toBe('two\n');
    expect(() => readFileSync(join(root, 'gone.txt'))).toThrow();
  });

  it('says what a checkpoint holds, and opens a file of a snapshot at its version, compared with the one before', async () => {
    const { viewer, root, projectId } = await timeline();
    writeFileSync(join(root, 'keep.txt'), 'two\n');
    await viewer.engine.rescan(projectId);
    await viewer.refreshed();
    expect(await viewer.app.getState().createCheckpoint('marked')).toBe(true);
    await viewer.refreshed();
    const [checkpoint, change] = viewer.app.getState().snapshots;
    viewer.calls.length = 0;
    await viewer.app.getState().selectSnapshot(checkpoint!.snapshotId);
    const held = await viewer.until((st) => st.snapshotSummary !== null);
    expect(held.snapshotSummary).toMatchObject({ files: 3, changedSince: 1, since: { kind: 'baseline' } });
    expect([...viewer.calls].sort()).toEqual(['snapshotChanges', 'snapshotSummary']);

    await viewer.app.getState().selectSnapshot(change!.snapshotId);
    const [edit] = viewer.app.getState().snapshotChanges!;
    await viewer.app.getState().openVersion(edit!.path, edit!.versionId);
    const opened = await viewer.until((st) => st.diff !== null);
    expect(opened).toMatchObject({ view: 'files', selectedPath: 'keep.txt', selectedVersionId: edit!.versionId, compareWith: 'previous' });
    expect([opened.diff!.before?.data, opened.diff!.after?.data]).toEqual(['one\n', 'two\n']);
  });
});
