import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { diffTexts } from '../../../shared/diff/textDiff.js';
import { comparisonTitle } from '../../../renderer/stores/compareSides.js';
import { currentComparison } from '../../../renderer/stores/versionsSlice.js';
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
    expect([...viewer.calls].sort()).toEqual(['diffInputs', 'diskState', 'fileTree', 'restoreFile', 'versions']);
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
    expect([...viewer.calls].sort()).toEqual(['diskState', 'fileTree', 'restoreFile', 'versions']);
    expect(viewer.app.getState().versions[0]!.origin.kind).toBe('undo');
  });

  it('names both sides of a comparison as Version N, the older on the left whichever was picked first', async () => {
    const { viewer, root, projectId } = await fileWithTwoVersions();
    writeFileSync(join(root, 'notes.md'), 'third draft\n');
    await viewer.engine.rescan(projectId);
    await viewer.until((s) => s.versions.length === 3);
    const [third, , first] = viewer.app.getState().versions;
    viewer.app.getState().togglePick(third!.versionId);
    viewer.app.getState().togglePick(first!.versionId);
    const picked = await viewer.until((s) => s.diff !== null);
    expect(comparisonTitle(currentComparison(picked)!)).toBe('Version 1 ↔ Version 3');
    expect([picked.diff!.before?.data, picked.diff!.after?.data]).toEqual(['first draft\n', 'third draft\n']);
    viewer.app.getState().clearPicks();
    viewer.app.getState().selectVersion(first!.versionId);
    viewer.app.getState().setCompareWith('disk');
    expect(comparisonTitle(currentComparison(viewer.app.getState())!)).toBe('Version 1 ↔ Current file');
    viewer.app.getState().setCompareWith('previous');
    expect(comparisonTitle(currentComparison(viewer.app.getState())!)).toBe('No earlier version ↔ Version 1');
  });

  it('restores one change of the comparison with the current file, names the version in its toast, and undoes it', async () => {
    const viewer = await startViewer();
    const root = tempDir();
    const first = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n';
    writeTree(root, { 'list.txt': first });
    const projectId = await openInViewer(viewer, root);
    const now = 'a\nB\nc\nd\ne\nf\ng\nh\ni\nJ\n';
    writeFileSync(join(root, 'list.txt'), now);
    await viewer.engine.rescan(projectId);
    await viewer.refreshed();
    viewer.app.getState().selectPath('list.txt');
    await viewer.until((s) => s.versionsStatus === 'ready' && s.versions.length === 2);
    viewer.app.getState().selectVersion(viewer.app.getState().versions[1]!.versionId);
    viewer.app.getState().setCompareWith('disk');
    await viewer.until((s) => s.diff !== null && s.disk !== null);
    const blocks = diffTexts(first, now).blocks;
    expect(blocks).toHaveLength(2);

    viewer.calls.length = 0;
    await viewer.app.getState().restoreChange(blocks[1]!);
    await viewer.refreshed();
    expect(readFileSync(join(root, 'list.txt'), 'utf8')).toBe('a\nB\nc\nd\ne\nf\ng\nh\ni\nj\n');
    expect(viewer.calls).toContain('restoreHunk');
    const toast = viewer.app.getState().toasts.at(-1)!;
    expect(toast.message).toMatch(/^Restored one change of list\.txt from Version 1 \(/);
    toast.action!.run();
    await viewer.until((s) => s.toasts.some((t) => t.message.startsWith('Undone')));
    expect(readFileSync(join(root, 'list.txt'), 'utf8')).toBe(now);
  });
});
