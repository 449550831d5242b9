import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { startViewer } from './viewerHarness.js';

// A link (hindsight://open in the app, the address at the start) against the real engine: a known
// project shows the file's newest version with the line marked; an unknown project id changes
// nothing and calls nothing that opens, records or restores.

describe('a link to a file and line', () => {
  it('shows the file of a known project with its line, and ignores an unknown project', async () => {
    const viewer = await startViewer();
    const root = tempDir();
    writeTree(root, { 'src/app.ts': 'one\ntwo\nthree\n', 'b.txt': 'b' });
    const { projectId } = await viewer.engine.open(root);
    await viewer.app.getState().loadProjects();
    // The store module the harness loaded for this viewer (each viewer has its own).
    const { showViewLink } = await import('../../../renderer/stores/linkedLine.js');

    viewer.calls.length = 0;
    expect(showViewLink(viewer.app.getState, { projectId: 'no-such-project', path: 'src/app.ts', line: 2 })).toBe(false);
    expect(viewer.app.getState().currentProjectId).toBeNull();
    expect(viewer.calls).toEqual([]);

    expect(showViewLink(viewer.app.getState, { projectId, path: 'src/app.ts', line: 2 })).toBe(true);
    const shown = await viewer.until((s) => s.versionsStatus === 'ready' && s.contentStatus === 'ready');
    expect(shown.currentProjectId).toBe(projectId);
    expect(shown.view).toBe('files');
    expect(shown.selectedPath).toBe('src/app.ts');
    expect(shown.linkedLine).toEqual({ path: 'src/app.ts', line: 2 });
    expect(shown.selectedVersionId).toBe(shown.versions[0]!.versionId);
    await viewer.refreshed();
    const forbidden = ['openProject', 'restoreFile', 'restoreSnapshot', 'checkpoint', 'rescan', 'pauseRecording', 'resumeRecording'];
    expect(viewer.calls.filter((c) => forbidden.includes(c))).toEqual([]);

    // Another file chosen: the mark was the link's file's only.
    viewer.app.getState().selectPath('b.txt');
    await viewer.until((s) => s.versionsPath === 'b.txt');
    expect(viewer.app.getState().linkedLine?.path).not.toBe('b.txt');
  });

  it('follows a hindsight://open link the app sends before the window has read its project list', async () => {
    const viewer = await startViewer();
    const root = tempDir();
    writeTree(root, { 'notes.md': 'a\nb\n' });
    const { projectId } = await viewer.engine.open(root);
    expect(viewer.app.getState().projects).toEqual([]);
    const { routeEvent } = await import('../../../renderer/stores/liveEvents.js');
    routeEvent({ event: 'appCommand', payload: { command: 'openLink', projectId, path: 'notes.md', line: 2 } });
    const shown = await viewer.until((s) => s.versionsStatus === 'ready');
    expect(shown.currentProjectId).toBe(projectId);
    expect(shown.linkedLine).toEqual({ path: 'notes.md', line: 2 });
  });
});
