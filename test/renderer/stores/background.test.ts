import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { openInViewer, startViewer, type AppSide } from './viewerHarness.js';

// Hindsight in the background, as the app's window shows it: the one question about starting at
// login (after the first project, never again once answered, never in the browser host), the
// notice at the first close of the last window, and the recording state the tray shows too.

describe('the window and recording in the background', () => {
  it('asks once, after the first project, whether to start at login, and keeps the answer', async () => {
    const app: AppSide = { asked: [] };
    const dataDir = tempDir('hindsight-data-');
    const viewer = await startViewer({ app, dataDir });
    await viewer.app.getState().loadProjects();
    await viewer.app.getState().askLoginOnce();
    expect(viewer.app.getState().loginQuestion).toBe(false);

    const root = tempDir();
    writeTree(root, { 'a.txt': 'a' });
    await openInViewer(viewer, root);
    await viewer.app.getState().askLoginOnce();
    expect(viewer.app.getState().loginQuestion).toBe(true);
    await viewer.app.getState().answerLoginQuestion(false);
    expect(app.asked).toEqual([{ setStartAtLogin: false }]);
    expect(viewer.engine.configView().settings.startAtLogin).toBe(false);

    // The next start of the app knows the answer: no question.
    const again = await startViewer({ app: { asked: [] }, dataDir });
    await again.app.getState().loadProjects();
    await again.app.getState().askLoginOnce();
    expect(again.app.getState().loginQuestion).toBe(false);
  });

  it('never asks in the browser host, which no login starts', async () => {
    const viewer = await startViewer();
    const root = tempDir();
    writeTree(root, { 'a.txt': 'a' });
    await openInViewer(viewer, root);
    await viewer.app.getState().askLoginOnce();
    expect(viewer.app.getState().loginQuestion).toBe(false);
  });

  it('shows the close notice when main asks, then closes the window through main, and follows the recording state', async () => {
    const app: AppSide = { asked: [] };
    const viewer = await startViewer({ app });
    viewer.engine.events.emit({ event: 'recording', payload: { recording: false, resumesAt: null, projects: 0 } });
    await viewer.until((s) => s.recording?.recording === false);

    // As main sends it (an appCommand) when the last window is closed the first time.
    const { routeEvent } = await import('../../../renderer/stores/liveEvents.js');
    routeEvent({ event: 'appCommand', payload: { command: 'closeNotice' } });
    expect(viewer.app.getState().closeNotice).toBe(true);
    await viewer.app.getState().answerCloseNotice(false);
    expect(viewer.app.getState().closeNotice).toBe(false);
    expect(app.asked).toEqual([{ closeWindow: { quit: false } }]);
    expect(viewer.engine.configView().settings.backgroundNoticeShown).toBe(true);
  });
});
