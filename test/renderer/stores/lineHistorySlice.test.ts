import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { openInViewer, startViewer } from './viewerHarness.js';

// "History for selection" in the viewer's store, against the real engine: the lines selected in
// the shown version are asked of the engine once (lineHistory, as `log --lines` lists them), and
// "Restore this change" writes them back as a listed version left them through restoreHunk, with
// the rest of the file kept and an Undo.

const lines = (...words: string[]) => words.map((w) => `${w}\n`).join('');
const FIRST = lines('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j');
// Two lines added above the followed ones: they move down, unchanged.
const SECOND = lines('top1', 'top2', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j');
// One of them changed.
const THIRD = lines('top1', 'top2', 'a', 'b', 'c', 'D!', 'e', 'f', 'g', 'h', 'i', 'j');
// A line far below changed: not part of their story.
const FOURTH = lines('top1', 'top2', 'a', 'b', 'c', 'D!', 'e', 'f', 'g', 'h', 'i', 'J!');

async function fileWithFourVersions() {
  const viewer = await startViewer();
  const root = tempDir();
  writeTree(root, { 'list.txt': FIRST });
  const projectId = await openInViewer(viewer, root);
  for (const text of [SECOND, THIRD, FOURTH]) {
    writeFileSync(join(root, 'list.txt'), text);
    await viewer.engine.rescan(projectId);
  }
  await viewer.refreshed();
  viewer.app.getState().selectPath('list.txt');
  const state = await viewer.until((s) => s.versionsStatus === 'ready' && s.versionsPath === 'list.txt' && s.disk !== null);
  // Newest first, as the list shows them.
  const [fourth, third, second, first] = state.versions.map((v) => v.versionId) as [number, number, number, number];
  return { viewer, root, projectId, ids: { first, second, third, fourth } };
}

describe('history for selection', () => {
  it('lists the versions that changed the selected lines, newest first, with one call', async () => {
    const { viewer, projectId, ids } = await fileWithFourVersions();
    // Lines 5-7 of the newest version: c, D!, e.
    viewer.app.getState().setTextSelection({ path: 'list.txt', versionId: ids.fourth, from: 5, to: 7 });
    viewer.calls.length = 0;
    expect(await viewer.app.getState().openLineHistory()).toBe(true);
    const history = (await viewer.until((s) => s.lineHistory?.status === 'ready')).lineHistory!;
    expect(viewer.requests).toEqual([{ name: 'lineHistory', request: { projectId, path: 'list.txt', from: 5, to: 7, versionId: ids.fourth } }]);
    expect(history.entries.map((e) => e.versionId)).toEqual([ids.third, ids.first]);
    // The engine's own answer, read the other way round.
    const engine = await viewer.engine.lineHistory(projectId, 'list.txt', { from: 5, to: 7 }, ids.fourth);
    expect(history.entries).toEqual(engine.reverse());
    // Followed back past the two lines added above: lines 3-5 in the first version.
    expect(history.entries[1]!.lines).toEqual({ from: 3, to: 5 });
    expect(history.entries[0]!.changes).toEqual([{ beforeLine: 6, removed: ['d\n'], afterLine: 6, added: ['D!\n'] }]);
  });

  it('follows only lines of the version shown: a selection of another version asks nothing', async () => {
    const { viewer, ids } = await fileWithFourVersions();
    viewer.app.getState().setTextSelection({ path: 'list.txt', versionId: ids.second, from: 1, to: 2 });
    viewer.calls.length = 0;
    expect(await viewer.app.getState().openLineHistory()).toBe(false);
    expect(viewer.calls).toEqual([]);
    expect(viewer.app.getState().lineHistory).toBeNull();
  });

  it('answers a range past the end of the version with the engine’s error, shown in the panel', async () => {
    const { viewer, ids } = await fileWithFourVersions();
    await viewer.app.getState().openLineHistory({ path: 'list.txt', versionId: ids.fourth, from: 11, to: 40 });
    const history = (await viewer.until((s) => s.lineHistory?.status === 'error')).lineHistory!;
    expect(history.error?.code).toBe('BAD_REQUEST');
    expect(history.error?.message).toMatch(/has only 12 lines/);
  });

  it('restores the lines as a listed version left them, keeps the rest of the file, and undoes it', async () => {
    const { viewer, root, ids } = await fileWithFourVersions();
    await viewer.app.getState().openLineHistory({ path: 'list.txt', versionId: ids.fourth, from: 5, to: 7 });
    await viewer.until((s) => s.lineHistory?.status === 'ready');
    viewer.calls.length = 0;
    await viewer.app.getState().restoreLineChange(ids.first);
    await viewer.refreshed();
    // Line d is back where the lines are now; the lines added above and the change below stay.
    expect(readFileSync(join(root, 'list.txt'), 'utf8')).toBe(lines('top1', 'top2', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'J!'));
    expect(viewer.calls.filter((c) => c === 'restoreHunk')).toHaveLength(1);
    const toast = viewer.app.getState().toasts.at(-1)!;
    expect(toast.message).toMatch(/^Restored lines 3–5 of list\.txt as Version 1 \(/);
    toast.action!.run();
    await viewer.until((s) => s.toasts.some((t) => t.message.startsWith('Undone')));
    expect(readFileSync(join(root, 'list.txt'), 'utf8')).toBe(FOURTH);
  });

  it('says so and writes nothing where the file already holds the lines as that version left them', async () => {
    const { viewer, root, ids } = await fileWithFourVersions();
    await viewer.app.getState().openLineHistory({ path: 'list.txt', versionId: ids.fourth, from: 5, to: 7 });
    await viewer.until((s) => s.lineHistory?.status === 'ready');
    viewer.calls.length = 0;
    await viewer.app.getState().restoreLineChange(ids.third);
    expect(viewer.calls).not.toContain('restoreHunk');
    expect(viewer.app.getState().toasts.at(-1)?.message).toMatch(/already holds these lines as Version 3/);
    expect(readFileSync(join(root, 'list.txt'), 'utf8')).toBe(FOURTH);
  });

  it('restores nothing where the file differs from that version in several places around the lines', async () => {
    const { viewer, root, ids } = await fileWithFourVersions();
    await viewer.app.getState().openLineHistory({ path: 'list.txt', versionId: ids.fourth, from: 3, to: 9 });
    await viewer.until((s) => s.lineHistory?.status === 'ready');
    const onDisk = lines('top1', 'top2', 'A?', 'b', 'c', 'D!', 'e', 'f', 'G?', 'h', 'i', 'J!');
    writeFileSync(join(root, 'list.txt'), onDisk);
    viewer.calls.length = 0;
    await viewer.app.getState().restoreLineChange(ids.third);
    expect(viewer.calls).not.toContain('restoreHunk');
    expect(viewer.app.getState().toasts.at(-1)).toMatchObject({ tone: 'error', message: expect.stringMatching(/differs from Version 3 \(.*\) in 2 places/) });
    expect(readFileSync(join(root, 'list.txt'), 'utf8')).toBe(onDisk);
  });
});
