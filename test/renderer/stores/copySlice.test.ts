import { describe, expect, it } from 'vitest';
import type { Progress } from '../../../shared/progress.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { startViewer } from './viewerHarness.js';

// The copy slice against the real engine: a first copy's card follows the engine's progress
// events for its operation and goes when the open ends; cancelling stops the copy, which keeps
// what it copied for next time.

function folderOf(files: number): string {
  const root = tempDir();
  const spec: Record<string, string> = {};
  for (let i = 0; i < files; i++) spec[`d${i % 20}/f${i}.txt`] = `file ${i}\n`.repeat(20);
  writeTree(root, spec);
  return root;
}

describe('the copy slice', () => {
  it('shows a first copy’s progress from the engine’s events, then drops the card', async () => {
    const viewer = await startViewer();
    const root = folderOf(400);
    const seen: Progress[] = [];
    const stop = viewer.app.subscribe((state) => {
      for (const copy of Object.values(state.copies)) if (copy.progress && copy.progress !== seen.at(-1)) seen.push(copy.progress);
    });
    expect(await viewer.app.getState().openFolder(root)).toBe(true);
    stop();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((p) => p.operation === 'first-copy' && p.projectId === viewer.app.getState().currentProjectId)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ phase: 'done', filesDone: 400, filesTotal: 400 });
    expect(viewer.app.getState().copies).toEqual({});
  });

  it('takes the "Copied …" line away once the user works in the project: a file opened or a tab changed', async () => {
    const viewer = await startViewer();
    const root = folderOf(3);
    expect(await viewer.app.getState().openFolder(root)).toBe(true);
    expect(viewer.app.getState().finished).toHaveLength(1);
    // A look at another tab is work in the project too.
    viewer.app.getState().setView('timeline');
    expect(viewer.app.getState().finished).toEqual([]);

    const other = folderOf(2);
    expect(await viewer.app.getState().openFolder(other)).toBe(true);
    expect(viewer.app.getState().finished).toHaveLength(1);
    viewer.app.getState().selectPath('f0.txt');
    expect(viewer.app.getState().finished).toEqual([]);
  });

  it('cancels a first copy: the open ends, says so, and no baseline is written', async () => {
    const viewer = await startViewer();
    const root = folderOf(3000);
    let cancelled: Promise<void> | undefined;
    let asked = false;
    const stop = viewer.app.subscribe((state) => {
      const copy = Object.values(state.copies)[0];
      if (!copy?.progress || copy.progress.filesTotal === 0 || asked) return; // under way: files found
      asked = true; // before the call: cancelling changes the state, and this listener hears it
      cancelled = state.cancelCopy(copy.operationId);
    });
    expect(await viewer.app.getState().openFolder(root)).toBe(false);
    stop();
    await cancelled;
    expect(viewer.calls.filter((c) => c === 'cancel')).toHaveLength(1);
    expect(viewer.app.getState().toasts.at(-1)!.message).toMatch(/was cancelled/);
    expect(viewer.app.getState().copies).toEqual({});
    expect(() => viewer.engine.log(viewer.engine.locate(root))).toThrow(expect.objectContaining({ code: 'NO_BASELINE' }));
  });
});
