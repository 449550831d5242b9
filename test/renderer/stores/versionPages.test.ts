import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { VersionInfo } from '../../../shared/contract.js';
import { recordPaths } from '../../../electron/history/versions/recordPaths.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { versionNumbers, versionTotal } from '../../../renderer/stores/versionNumbers.js';
import { openInViewer, startViewer } from './viewerHarness.js';

// A file with a long history is shown a page at a time: choosing it reads and sends the newest
// page only (one call, 100 rows), each older page is one more call, and comparing the oldest
// version shown with the one before it reads the next page first. Counted, never timed.

const VERSIONS = 250;

describe('versions a page at a time in the viewer', () => {
  it('sends the newest page first, then one page per request, down to the baseline', async () => {
    const viewer = await startViewer();
    const root = tempDir();
    writeTree(root, { 'hot.txt': 'version 0\n' });
    const projectId = await openInViewer(viewer, root);
    const store = viewer.engine.store(projectId);
    for (let i = 1; i < VERSIONS; i++) {
      writeFileSync(join(root, 'hot.txt'), `version ${i}\n`);
      await recordPaths(store, ['hot.txt'], { kind: 'change', label: null });
    }
    await viewer.refreshed();

    // Rows sent, counted where the answers arrive.
    const rows: number[] = [];
    const api = (globalThis as unknown as { window: { hindsight: { versions: (r: unknown) => Promise<{ ok: boolean; value: VersionInfo[] }> } } }).window
      .hindsight;
    const versions = api.versions.bind(api);
    api.versions = async (request) => {
      const answer = await versions(request);
      if (answer.ok) rows.push(answer.value.length);
      return answer;
    };

    viewer.calls.length = 0;
    viewer.app.getState().selectPath('hot.txt');
    await viewer.until((s) => s.versionsStatus === 'ready' && s.contentStatus === 'ready');
    expect(viewer.calls.filter((c) => c === 'versions')).toHaveLength(1);
    expect(rows).toEqual([100]);
    expect(viewer.app.getState().versions).toHaveLength(100);
    expect(viewer.app.getState().versionsMore).toBe(true);
    // Numbered from the file's version count (1 is the oldest) before the older pages are read.
    const first = await viewer.until((s) => s.disk !== null);
    expect(first.disk!.versionCount).toBe(VERSIONS);
    const numbers = versionNumbers(first.versions, versionTotal(first));
    expect(numbers.get(first.versions[0]!.versionId)).toBe(VERSIONS);
    expect(numbers.get(first.versions[99]!.versionId)).toBe(VERSIONS - 99);
    expect(first.disk!.currentVersionId).toBe(first.versions[0]!.versionId);

    await viewer.app.getState().loadOlderVersions();
    expect(rows).toEqual([100, 100]);
    // The oldest shown compared with the one before it: the next page is read first.
    const oldestShown = viewer.app.getState().versions.at(-1)!;
    viewer.app.getState().selectVersion(oldestShown.versionId);
    viewer.app.getState().setCompareWith('previous');
    const compared = await viewer.until((s) => s.diff !== null);
    expect(rows).toEqual([100, 100, 50]);
    expect(compared.versionsMore).toBe(false);
    expect(compared.versions).toHaveLength(VERSIONS);
    expect(compared.versions.at(-1)!.kind).toBe('baseline');
    expect(compared.diff!.after?.data).toBe(`version ${VERSIONS - 200}\n`);
    expect(compared.diff!.before?.data).toBe(`version ${VERSIONS - 201}\n`);
    expect(new Set(compared.versions.map((v) => v.versionId)).size).toBe(VERSIONS);
    expect(versionNumbers(compared.versions, versionTotal(compared)).get(compared.versions.at(-1)!.versionId)).toBe(1);
  });

  it('opens a version on an older page (a search hit) by reading pages down to it', async () => {
    const viewer = await startViewer();
    const root = tempDir();
    writeTree(root, { 'hot.txt': 'version 0\n', 'other.txt': 'other\n' });
    const projectId = await openInViewer(viewer, root);
    const store = viewer.engine.store(projectId);
    for (let i = 1; i < VERSIONS; i++) {
      writeFileSync(join(root, 'hot.txt'), `version ${i}\n`);
      await recordPaths(store, ['hot.txt'], { kind: 'change', label: null });
    }
    await viewer.refreshed();
    const oldest = viewer.engine.versions(projectId, 'hot.txt')[0]!;
    viewer.app.getState().selectPath('other.txt');
    await viewer.until((s) => s.versionsPath === 'other.txt' && s.versionsStatus === 'ready');

    viewer.calls.length = 0;
    await viewer.app.getState().openVersion('hot.txt', oldest.versionId);
    const state = viewer.app.getState();
    expect(state.versionsPath).toBe('hot.txt');
    expect(state.selectedVersionId).toBe(oldest.versionId);
    expect(state.versions).toHaveLength(VERSIONS);
    expect(viewer.calls.filter((c) => c === 'versions')).toHaveLength(3);
  });

  it('asks for the versions alone, and for the marks and the selected contents only after the list is painted', async () => {
    const viewer = await startViewer();
    const root = tempDir();
    writeTree(root, { 'a.txt': 'a\n' });
    await openInViewer(viewer, root);
    await viewer.refreshed();
    // Frames held here: a callback runs only when the test lets a frame pass.
    const frames: (() => void)[] = [];
    const g = globalThis as unknown as { requestAnimationFrame?: (cb: () => void) => number };
    g.requestAnimationFrame = (cb) => frames.push(cb);
    try {
      viewer.calls.length = 0;
      viewer.app.getState().selectPath('a.txt');
      await viewer.until((s) => s.versionsStatus === 'ready');
      await new Promise((resolve) => setTimeout(resolve, 50));
      // The list a click waits for is asked alone: the disk and git marks and the contents
      // only once a frame has painted it.
      expect(viewer.calls).toEqual(['versions']);
      expect(frames).toHaveLength(1);
      frames.shift()!();
      const shown = await viewer.until((s) => s.contentStatus === 'ready' && s.disk !== null);
      expect(shown.content?.data).toBe('a\n');
      expect(shown.disk?.currentVersionId).toBe(shown.versions[0]!.versionId);
      expect([...viewer.calls].sort()).toEqual(['diskState', 'gitVersions', 'readVersion', 'versions']);
    } finally {
      delete g.requestAnimationFrame;
    }
  });
});
