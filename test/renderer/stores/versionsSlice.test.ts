import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { openInViewer, startViewer } from './viewerHarness.js';

// The versions slice against the real engine: a file's versions, a version's contents and its
// comparison with the disk, and a restore from the confirm dialog with its Undo. One restore click
// asks the engine once and refreshes once, from the events the restore caused.

async function fileWithTwoVersions() {
  const viewer = await startViewer();
  const root = tempDir();
  writeTree(root, { 'notes.md': 'first draft\n', 'other.txt': 'other\n' });
  const projectId = await openInViewer(viewer, root);
  writeFileSync(join(root, 'notes.md'), 'second draft\n');
  // Recorded by the engine, not by the viewer: the view learns of it from the event.
  await viewer.engine.rescan(projectId);
  await viewer.refreshed();
  viewer.app.getState().selectPath('notes.md');
  await viewer.until((s) => s.versionsStatus === 'ready' && s.versionsPath === 'notes.md');
  return { viewer, root, projectId };
}

describe('the versions slice', () => {
  it('lists a file’s versions newest first, shows one, and compares it with the disk', async () => {
    const { viewer, root } = await fileWithTwoVersions();
    const state = viewer.app.getState();
    expect(state.versions.map((v) => v.kind)).toEqual(['change', 'baseline']);
    await viewer.until((s) => s.contentStatus === 'ready');
    expect(viewer.app.getState().content?.data).toBe('second draft\n');

    viewer.app.getState().selectVersion(state.versions[1]!.versionId);
    await viewer.until((s) => s.contentStatus === 'ready' && s.content?.data === 'first draft\n');

    writeFileSync(join(root, 'notes.md'), 'on disk now\n');
    viewer.app.getState().setCompareWith('disk');
    const compared = await viewer.until((s) => s.diff !== null);
    expect([compared.diff!.before?.data, compared.diff!.after?.data]).toEqual(['first draft\n', 'on disk now\n']);
  });

  it('compares two versions picked in the list, older first, and drops back when one is unpicked', async () => {
    const { viewer, root, projectId } = await fileWithTwoVersions();
    writeFileSync(join(root, 'notes.md'), 'third draft\n');
    await viewer.engine.rescan(projectId);
    await viewer.until((s) => s.versions.length === 3);
    const [third, , first] = viewer.app.getState().versions;
    viewer.app.getState().togglePick(third!.versionId);
    viewer.app.getState().togglePick(first!.versionId);
    const picked = await viewer.until((s) => s.diff !== null);
    expect([picked.diff!.before?.data, picked.diff!.after?.data]).toEqual(['first draft\n', 'third draft\n']);
    viewer.app.getState().togglePick(first!.versionId);
    expect(viewer.app.getState().comparePicks).toEqual([third!.versionId]);
  });

  it('restores on one click with the restore call and one refresh, no call twice, and undoes it', async () => {
    const { viewer, root } = await fileWithTwoVersions();
    const baseline = viewer.app.getState().versions[1]!;
    viewer.app.getState().selectVersion(baseline.versionId);
    await viewer.until((s) => s.contentStatus === 'ready' && s.content?.data === 'first draft\n');

    viewer.calls.length = 0;
    await viewer.app.getState().requestRestore();
    // The confirm dialog shows what will change: the disk now, then the version.
    const confirming = viewer.app.getState().restoreTarget!;
    expect([confirming.diff?.before?.data, confirming.diff?.after?.data]).toEqual(['second draft\n', 'first draft\n']);
    await viewer.app.getState().confirmRestore();
    await viewer.refreshed();
    expect(readFileSync(join(root, 'notes.md'), 'utf8')).toBe('first draft\n');
    await viewer.until((s) => s.disk?.currentVersionId === s.versions[0]?.versionId);
    expect([...viewer.calls].sort()).toEqual(['deletedFiles', 'diffInputs', 'diskState', 'fileTree', 'restoreFile', 'versions']);
    // The view shows the restore: its version on top, the version restored to still selected.
    const after = viewer.app.getState();
    expect(after.versions[0]!.kind).toBe('restore');
    expect(after.versions[0]!.origin).toMatchObject({ kind: 'restore', fromVersionId: baseline.versionId });
    expect(after.selectedVersionId).toBe(baseline.versionId);
    // The disk holds the restored bytes: the restore's row and the baseline's are identical to it.
    expect(after.disk?.sameVersionIds).toEqual([baseline.versionId, after.versions[0]!.versionId]);

    // Undo: the version the engine named, one call, one refresh again.
    const toast = after.toasts.at(-1)!;
    expect(toast.action?.label).toBe('Undo');
    viewer.calls.length = 0;
    toast.action!.run();
    await viewer.until((s) => s.toasts.some((t) => t.message.startsWith('Undone')));
    await viewer.refreshed();
    expect(readFileSync(join(root, 'notes.md'), 'utf8')).toBe('second draft\n');
    expect([...viewer.calls].sort()).toEqual(['deletedFiles', 'diskState', 'fileTree', 'restoreFile', 'versions']);
    expect(viewer.app.getState().versions[0]!.origin.kind).toBe('undo');
  });
});
