import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeOnFoldFs } from '../../helpers/foldMount.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { openInViewer, startViewer, type Viewer } from './viewerHarness.js';

// The viewer is told how each project's folder compares names (ProjectSummary.nameRules, against
// the real engine) and compares names the same way: a folder typed for "Restore a folder" in
// another spelling is the snapshot's folder where the project's folder folds names, and only there.

const EXACT = { foldsCase: false, foldsNormalization: false };
const FOLDS = { foldsCase: true, foldsNormalization: true };

/** A project with src/a.txt edited since its baseline, shown in a viewer with the baseline selected. */
async function editedSinceBaseline(root: string): Promise<Viewer> {
  writeTree(root, { 'src/a.txt': 'one\n', 'top.txt': 'top\n' });
  const viewer = await startViewer();
  const projectId = await openInViewer(viewer, root);
  await viewer.app.getState().loadTimeline();
  writeFileSync(join(root, 'src/a.txt'), 'two\n');
  await viewer.engine.rescan(projectId);
  await viewer.refreshed();
  await viewer.app.getState().selectSnapshot(viewer.app.getState().snapshots.at(-1)!.snapshotId);
  return viewer;
}

function shownProject(viewer: Viewer) {
  const s = viewer.app.getState();
  return s.projects.find((p) => p.projectId === s.currentProjectId)!;
}

describe('a project whose folder compares names exactly', () => {
  it('is listed with exact rules, and a folder typed in another case is not the snapshot’s folder', async () => {
    const viewer = await editedSinceBaseline(tempDir());
    expect(shownProject(viewer).nameRules).toEqual(EXACT);
    viewer.app.getState().beginSnapshotRestore('folder', 'SRC');
    const done = await viewer.until((s) => s.snapshotRestore?.folders != null && s.snapshotRestore.previewError !== null);
    expect(done.snapshotRestore!.previewError!.code).toBe('NOT_FOUND');
  });
});

describeOnFoldFs('a project whose folder folds names', (mount) => {
  it('is listed with its rules, and a folder typed in another case restores the snapshot’s folder', async () => {
    const root = mkdtempSync(join(mount().dir, 'viewer-'));
    const viewer = await editedSinceBaseline(root);
    expect(shownProject(viewer).nameRules).toEqual(FOLDS);
    viewer.app.getState().beginSnapshotRestore('folder', 'SRC');
    // Once the snapshot's folders are known, the preview answers (again) for the folder they spell.
    await viewer.until((s) => s.snapshotRestore?.folders != null);
    const ready = await viewer.until((s) => s.snapshotRestore!.preview !== null || s.snapshotRestore!.previewError !== null);
    expect(ready.snapshotRestore!.previewError).toBeNull();
    expect(ready.snapshotRestore!.preview).toMatchObject({ write: ['src/a.txt'], recreate: [] });
    await viewer.app.getState().confirmSnapshotRestore();
    await viewer.refreshed();
    expect(readFileSync(join(root, 'src/a.txt'), 'utf8')).toBe('one\n');
    expect(viewer.app.getState().toasts.at(-1)!.message).toContain('was restored to');
  });
});
