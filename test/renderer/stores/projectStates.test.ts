import { describe, expect, it } from 'vitest';
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { startViewer, type Viewer } from './viewerHarness.js';

// Where a known project's folder stands, as the viewer sees it against the real engine: looked at
// again when a project is chosen and when the window comes back (checkProjects), gone when it was
// moved away and present (and opened behind its history) once it is back; an open that cannot
// find it adds no toast (the banner says it); Locate… and Remove from list.

async function knownProject(viewer: Viewer) {
  const parent = tempDir();
  const root = join(parent, 'site');
  writeTree(root, { 'a.txt': 'a' });
  const { projectId } = await viewer.engine.open(root);
  await viewer.engine.closeProject(projectId); // known from an earlier session
  await viewer.app.getState().loadProjects();
  return { parent, root, projectId };
}

const stateOf = (viewer: Viewer, projectId: string) => viewer.app.getState().projects.find((p) => p.projectId === projectId)?.state;

describe('project states in the viewer', () => {
  it('shows a moved folder as gone without opening or a toast, and present and opened once it is back', async () => {
    const viewer = await startViewer();
    const { parent, root, projectId } = await knownProject(viewer);
    renameSync(root, join(parent, 'elsewhere'));

    viewer.calls.length = 0;
    viewer.app.getState().openKnown(viewer.app.getState().projects[0]!);
    await viewer.app.getState().checkProjects(); // joins the look the choice started
    expect(stateOf(viewer, projectId)).toBe('gone');
    await viewer.app.getState().checkProjects(); // a second look (the window regaining focus) changes nothing
    await viewer.refreshed();
    expect(viewer.app.getState().currentProjectId).toBe(projectId);
    expect(viewer.app.getState().toasts).toEqual([]);
    // The look at the folders, twice; the shown history's tree; never an open of a missing folder.
    expect(viewer.calls.filter((c) => c === 'listProjects' || c === 'openProject')).toEqual(['listProjects', 'listProjects']);

    renameSync(join(parent, 'elsewhere'), root);
    viewer.calls.length = 0;
    await viewer.app.getState().checkProjects();
    await viewer.until((s) => s.projects[0]?.open === true && Object.keys(s.copies).length === 0);
    expect(stateOf(viewer, projectId)).toBe('present');
    expect(viewer.calls.filter((c) => c === 'listProjects' || c === 'openProject')).toEqual(['listProjects', 'openProject']);
    expect(viewer.app.getState().toasts).toEqual([]);
  });

  it('Locate… moves the history to the folder’s new place and shows it there; Remove takes it off the list', async () => {
    const viewer = await startViewer();
    const { parent, root, projectId } = await knownProject(viewer);
    const moved = join(parent, 'site-renamed');
    renameSync(root, moved);
    viewer.app.getState().openKnown(viewer.app.getState().projects[0]!);
    await viewer.until((s) => s.projects[0]?.state === 'gone');
    viewer.app.getState().setView('timeline');

    expect(await viewer.app.getState().locateProject(projectId, moved)).toBe(true);
    const after = viewer.app.getState();
    expect(after.projects).toEqual([expect.objectContaining({ root: moved, name: 'site-renamed', state: 'present', open: true })]);
    expect(after.currentProjectId).toBe(after.projects[0]!.projectId);
    expect(after.view).toBe('timeline');

    // A copy is not the folder: refused, nothing moves.
    expect(await viewer.app.getState().locateProject(after.currentProjectId!, parent)).toBe(false);
    expect(viewer.app.getState().toasts.at(-1)!.message).toMatch(/not the folder that was at/);

    await viewer.app.getState().removeProject(after.currentProjectId!);
    expect(viewer.app.getState().projects).toEqual([]);
    expect(viewer.app.getState().currentProjectId).toBeNull();
  });

  it('turns a watcher’s “folder vanished” into a look at the folders and the banner, not a toast', async () => {
    const viewer = await startViewer();
    const { parent, root, projectId } = await knownProject(viewer);
    renameSync(root, join(parent, 'elsewhere'));
    viewer.calls.length = 0;
    // What the engine fires when a watched folder disappears (historyEngine's watcher report), twice.
    for (let i = 0; i < 2; i++) {
      viewer.engine.events.emit({
        event: 'error',
        payload: { projectId, error: { code: 'FOLDER_VANISHED', message: `The folder ${root} disappeared while Hindsight was working on it.` } },
      });
    }
    await viewer.refreshed();
    await viewer.app.getState().checkProjects();
    expect(stateOf(viewer, projectId)).toBe('gone');
    expect(viewer.app.getState().toasts).toEqual([]);
    expect(viewer.calls.every((c) => c === 'listProjects')).toBe(true);
  });
});
