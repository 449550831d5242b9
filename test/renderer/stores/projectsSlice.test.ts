import { describe, expect, it } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { openInViewer, rootFiles, startViewer } from './viewerHarness.js';

// The projects slice against the real engine: opening a folder shows it and lists it; a folder
// that is not there is a clear error; a known project shows at once and is opened behind it, what
// the rescan records reaching the view as events; a folder gone is marked by the engine's event.

describe('the projects slice', () => {
  it('opens a folder, shows and lists it, and says why a missing folder cannot be opened', async () => {
    const viewer = await startViewer();
    const root = tempDir();
    writeTree(root, { 'a.txt': 'a' });
    const projectId = await openInViewer(viewer, root);
    const state = viewer.app.getState();
    expect(state.currentProjectId).toBe(projectId);
    expect(state.projects).toEqual([expect.objectContaining({ projectId, root, open: true, state: 'present' })]);
    expect(rootFiles(state)).toEqual(['a.txt']);
    expect(state.unreadable[projectId]).toEqual([]); // the open result's list, for the project screen

    expect(await viewer.app.getState().openFolder(join(root, 'no-such-folder'))).toBe(false);
    expect(viewer.app.getState().toasts.at(-1)!.message).toMatch(/does not exist/);
    expect(viewer.app.getState().currentProjectId).toBe(projectId);
  });

  it('shows a known project at once and opens it behind; what the rescan records arrives as events', async () => {
    const viewer = await startViewer();
    const root = tempDir();
    writeTree(root, { 'a.txt': 'a' });
    const { projectId } = await viewer.engine.open(root); // known from an earlier session, not open any more
    await viewer.engine.closeProject(projectId);
    writeFileSync(join(root, 'b.txt'), 'added while Hindsight was closed');
    await viewer.app.getState().loadProjects();
    const known = viewer.app.getState().projects[0]!;

    viewer.calls.length = 0;
    viewer.app.getState().openKnown({ ...known, open: false });
    await viewer.until((s) => s.projects.some((p) => p.projectId === known.projectId && p.open) && Object.keys(s.copies).length === 0);
    await viewer.refreshed();
    expect(rootFiles(viewer.app.getState())).toEqual(['a.txt', 'b.txt']);
    // Shown at once (the tree's root level and its deleted files; the baseline's marks come with
    // the level), its folder looked at, opened once, the list read again; the rescan's snapshot
    // read the root level again (it deleted no file: the deleted files stand). No more: no whole
    // file list, no log.
    expect([...viewer.calls].sort()).toEqual(['deletedFiles', 'fileTree', 'fileTree', 'getConfig', 'listProjects', 'openProject']);
    expect(viewer.requests.filter((r) => r.name === 'fileTree').map((r) => r.request)).toEqual([
      { projectId: known.projectId, folder: '' },
      { projectId: known.projectId, folder: '' },
    ]);
  });

  it('marks a project whose folder is gone from the engine’s event', async () => {
    const viewer = await startViewer();
    const root = tempDir();
    writeTree(root, { 'a.txt': 'a' });
    const projectId = await openInViewer(viewer, root);
    rmSync(root, { recursive: true });
    await viewer.engine.sweepProjects();
    await viewer.refreshed();
    expect(viewer.app.getState().projects).toEqual([expect.objectContaining({ projectId, state: 'gone' })]);
  });
});
