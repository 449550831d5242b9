import { describe, expect, it } from 'vitest';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppState } from '../../../renderer/stores/appState.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { openInViewer, startViewer, type Viewer } from './viewerHarness.js';

// A refresh reads again what the view shows of what the snapshot events say changed (their
// effect: the paths recorded, a deletion, a pin), against the real engine and dispatcher: one
// restore click is the restore and three reads (the root level, the file's versions, the disk),
// where it was six with the deleted files and the budget read again though neither had changed.

const folderAsks = (viewer: Viewer) =>
  viewer.requests.filter((r) => r.name === 'fileTree').map((r) => (r.request as { folder?: string }).folder ?? '(every file)');
const levelReady = (folder: string) => (s: AppState) => s.levels.get(folder)?.status === 'ready';
const rootFile = (s: AppState, path: string) => {
  const root = s.levels.get('');
  return root?.status === 'ready' ? root.level.files.find((f) => f.path === path) : undefined;
};

/** A project whose notes.md has two versions, shown in the Files view with its pins (the budget) read. */
async function shownFile() {
  const viewer = await startViewer();
  const root = tempDir();
  writeTree(root, { 'notes.md': 'first draft\n', 'docs/guide.md': 'guide\n', 'old.txt': 'old\n' });
  const projectId = await openInViewer(viewer, root);
  writeFileSync(join(root, 'notes.md'), 'second draft\n');
  await viewer.engine.rescan(projectId);
  await viewer.refreshed();
  // The version list's pin toggles read the budget's pins.
  await viewer.app.getState().loadRetention();
  viewer.app.getState().selectPath('notes.md');
  await viewer.until((s) => s.versionsStatus === 'ready' && s.versions.length === 2 && s.disk !== null);
  return { viewer, root, projectId };
}

describe('a refresh reads what changed, as the snapshot events tell it', () => {
  it('one restore click: the restore, the root level, the file’s versions and the disk, nothing more', async () => {
    const { viewer, root } = await shownFile();
    const baseline = viewer.app.getState().versions[1]!;
    viewer.app.getState().selectVersion(baseline.versionId);
    await viewer.app.getState().requestRestore(); // the confirm dialog's diff, before the click

    viewer.calls.length = 0;
    await viewer.app.getState().confirmRestore();
    await viewer.refreshed();
    await viewer.until((s) => s.disk?.currentVersionId === s.versions[0]?.versionId);
    expect(readFileSync(join(root, 'notes.md'), 'utf8')).toBe('first draft\n');
    expect([...viewer.calls].sort()).toEqual(['diskState', 'fileTree', 'restoreFile', 'versions']);
    expect(folderAsks(viewer)).toEqual(['']);
    // What was read again shows the restore: its row on top, the root level's mark gone.
    const after = viewer.app.getState();
    expect(after.versions[0]!.origin).toMatchObject({ kind: 'restore', fromVersionId: baseline.versionId });
    expect(rootFile(after, 'notes.md')?.changed).toBe(false);
    expect(after.retention).not.toBeNull();
  });

  it('reads an open folder again only when a path under it was recorded', async () => {
    const { viewer, root, projectId } = await shownFile();
    viewer.app.getState().toggleFolder('docs', true);
    await viewer.until(levelReady('docs'));

    viewer.calls.length = 0;
    writeFileSync(join(root, 'notes.md'), 'third draft\n');
    await viewer.engine.rescan(projectId);
    await viewer.refreshed();
    expect(folderAsks(viewer)).toEqual(['']);

    viewer.calls.length = 0;
    writeFileSync(join(root, 'docs/guide.md'), 'guide, again\n');
    await viewer.engine.rescan(projectId);
    await viewer.refreshed();
    // The root holds docs/ (its figures changed too); the file shown was not recorded: not read.
    expect(folderAsks(viewer).sort()).toEqual(['', 'docs']);
    expect(viewer.calls).not.toContain('versions');
    expect(viewer.calls).not.toContain('deletedFiles');
  });

  it('reads the deleted files again when a file is deleted, and when a deleted one comes back', async () => {
    const { viewer, root, projectId } = await shownFile();
    const [oldVersion] = viewer.engine.versions(projectId, 'old.txt');

    viewer.calls.length = 0;
    rmSync(join(root, 'old.txt'));
    await viewer.engine.rescan(projectId);
    await viewer.refreshed();
    expect(viewer.calls).toContain('deletedFiles');
    expect(viewer.app.getState().deleted.map((d) => d.path)).toEqual(['old.txt']);

    viewer.calls.length = 0;
    await viewer.engine.restoreFile(projectId, 'old.txt', oldVersion!.versionId);
    await viewer.refreshed();
    expect(viewer.calls).toContain('deletedFiles');
    expect(viewer.app.getState().deleted).toEqual([]);
  });

  it('reads the budget again for a pin, and in the Store tab for every change, where its figures show', async () => {
    const { viewer, root, projectId } = await shownFile();
    viewer.calls.length = 0;
    // A person's checkpoint is pinned as it is written: the pins show beside every version.
    expect(await viewer.app.getState().createCheckpoint('named')).toBe(true);
    await viewer.refreshed();
    expect(viewer.calls.sort()).toEqual(['createCheckpoint', 'retentionStatus']);
    expect(viewer.app.getState().retention!.pins.snapshots).toHaveLength(1);

    await viewer.app.getState().loadStats();
    viewer.app.getState().setView('store');
    viewer.calls.length = 0;
    writeFileSync(join(root, 'notes.md'), 'third draft\n');
    await viewer.engine.rescan(projectId);
    await viewer.refreshed();
    expect(viewer.calls).toContain('retentionStatus');
    expect(viewer.calls).toContain('storeStats');
  });
});
