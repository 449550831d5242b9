import { describe, expect, it } from 'vitest';
import type { Progress } from '../../../shared/progress.js';
import { copyPercent, copyStatus } from '../../../renderer/features/copy/copyText.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { startViewer, type Viewer } from './viewerHarness.js';

// A copy's card, phase by phase, from the engine's own progress events: the walk first (files
// found so far, no bar), then a bar against a total that no longer changes, then a completion
// line that stays; a known project's check never shows "0 of 0" or a full bar before it is done;
// a folder past the large-folder settings asks, showing what was found, and copies once confirmed.

function folderOf(files: number, folders = 20): string {
  const root = tempDir();
  const spec: Record<string, string> = {};
  for (let i = 0; i < files; i++) spec[`d${i % folders}/f${i}.txt`] = `file ${i}\n`.repeat(20);
  writeTree(root, spec);
  return root;
}

function recordProgress(viewer: Viewer): { seen: Progress[]; stop: () => void } {
  const seen: Progress[] = [];
  const stop = viewer.app.subscribe((state) => {
    for (const copy of Object.values(state.copies)) if (copy.progress && copy.progress !== seen.at(-1)) seen.push(copy.progress);
  });
  return { seen, stop };
}

describe('copy phases in the viewer', () => {
  it('shows the walk as its own phase, then a bar against a known total, then a completion line', async () => {
    const viewer = await startViewer();
    const root = folderOf(400);
    const { seen, stop } = recordProgress(viewer);
    expect(await viewer.app.getState().openFolder(root)).toBe(true);
    stop();

    const phases = seen.map((p) => p.phase).filter((phase, i, all) => phase !== all[i - 1]);
    expect(phases).toEqual(['scan', 'copy', 'commit', 'done']);
    const scans = seen.filter((p) => p.phase === 'scan');
    expect(
      scans.some((p) => p.filesTotal > 0),
      'files found so far are shown while the walk runs',
    ).toBe(true);
    // Files found so far only grow, and the walk draws no bar (its total is not known yet).
    expect(scans.map((p) => p.filesTotal)).toEqual([...scans.map((p) => p.filesTotal)].sort((a, b) => a - b));
    expect(scans.map(copyPercent)).toEqual(scans.map(() => null));
    expect(copyStatus(scans.at(-1)!, null)).toMatch(/^Looking for files: [\d,]+ files? found so far/);
    // From the copy phase on, the total is the final one.
    const afterWalk = seen.slice(seen.findIndex((p) => p.phase === 'copy'));
    expect(new Set(afterWalk.map((p) => p.filesTotal))).toEqual(new Set([400]));

    const finished = viewer.app.getState().finished;
    expect(finished).toHaveLength(1);
    expect(finished[0]!.line).toMatch(/^400 files in [\d.]+ s, [\d.]+ KB$/);
    expect(viewer.app.getState().copies).toEqual({});
    viewer.app.getState().dismissFinished(finished[0]!.operationId);
    expect(viewer.app.getState().finished).toEqual([]);
  });

  it('checks a known project for changes without "0 of 0" or a full bar before it is done', async () => {
    const viewer = await startViewer();
    const root = folderOf(100);
    const { projectId } = await viewer.engine.open(root);
    await viewer.engine.closeProject(projectId);
    const { seen, stop } = recordProgress(viewer);
    expect(await viewer.app.getState().openFolder(root)).toBe(true);
    stop();
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.every((p) => p.operation === 'rescan')).toBe(true);
    const beforeDone = seen.filter((p) => p.phase !== 'done');
    const texts = beforeDone.map((p) => copyStatus(p, null));
    expect(texts.filter((t) => !t.startsWith('Checking for changes'))).toEqual([]);
    expect(texts.filter((t) => /\b0 of 0\b|of 0 files/.test(t))).toEqual([]);
    // A bar only while files are read against a known count: none while walking or saving.
    const unknown = beforeDone.filter((p) => p.filesTotal === 0 || p.phase === 'commit');
    expect(unknown.length).toBeGreaterThan(0);
    expect(unknown.map(copyPercent)).toEqual(unknown.map(() => null));
    expect(viewer.app.getState().finished.every((f) => !f.firstCopy && f.line.startsWith('Up to date: 100 files'))).toBe(true);
  });

  it('asks before copying a folder past the large-folder settings, showing what was found', async () => {
    const viewer = await startViewer();
    await viewer.app.getState().loadProjects();
    await viewer.engine.editConfig({ settings: { largeFolderFiles: 50 } });
    const root = folderOf(200);
    viewer.calls.length = 0;
    expect(await viewer.app.getState().openFolder(root)).toBe(false);
    const asked = viewer.app.getState().largeFolder;
    expect(asked).toMatchObject({ path: root, root, limitFiles: 50 });
    expect(asked!.files).toBeGreaterThan(50);
    expect(viewer.app.getState().toasts).toEqual([]);
    expect(viewer.app.getState().currentProjectId).toBeNull();

    await viewer.app.getState().confirmLargeFolder();
    expect(viewer.app.getState().largeFolder).toBeNull();
    expect(viewer.app.getState().projects).toEqual([expect.objectContaining({ root, state: 'present' })]);
    expect(viewer.engine.files(viewer.app.getState().currentProjectId!)).toHaveLength(200);
    expect(viewer.calls.filter((c) => c === 'openProject')).toHaveLength(2);

    // Cancelled instead: nothing is opened or listed.
    const other = folderOf(120);
    expect(await viewer.app.getState().openFolder(other)).toBe(false);
    viewer.app.getState().cancelLargeFolder();
    expect(viewer.app.getState().largeFolder).toBeNull();
    expect(viewer.app.getState().projects.map((p) => p.root)).toEqual([root]);
  });
});
