import { describe, expect, it } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { levelRows } from '../../../renderer/features/project/levelRows.js';
import { ancestorsOf, buildTree, visibleRows } from '../../../renderer/features/project/treeModel.js';
import type { AppState } from '../../../renderer/stores/appState.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { openInViewer, startViewer, type Viewer } from './viewerHarness.js';

// The tree loaded a level at a time, against the real engine: the first paint asks for the root
// level only; opening a folder asks for its level once (a "Loading…" row stands in until it
// arrives); a file selected elsewhere opens its folders' levels; a recorded change reads the root
// and the open folders again and nothing else; the filter reads the whole list, and only then.

const names = (rows: { node: { name: string; placeholder?: string }; depth: number }[]) =>
  rows.map((r) => `${'  '.repeat(r.depth)}${r.node.placeholder ? `[${r.node.name}]` : r.node.name}`);
const shown = (s: AppState) => names(levelRows(s.levels, s.expanded, s.showDeleted));
const folderAsks = (viewer: Viewer) =>
  viewer.requests.filter((r) => r.name === 'fileTree').map((r) => (r.request as { folder?: string }).folder ?? '(every file)');
const levelReady = (folder: string) => (s: AppState) => s.levels.get(folder)?.status === 'ready';

async function project() {
  const viewer = await startViewer();
  const root = tempDir();
  writeTree(root, {
    'README.md': 'readme\n',
    'docs/guide.md': 'guide\n',
    'src/app.ts': 'app\n',
    'src/lib/b.ts': 'b\n',
    'src/lib/deep/needle.c': 'deep\n',
  });
  viewer.calls.length = 0;
  const projectId = await openInViewer(viewer, root);
  return { viewer, root, projectId };
}

describe('the lazy file tree', () => {
  it('paints from the root level alone, and reads a folder’s level once, when it opens', async () => {
    const { viewer } = await project();
    expect(folderAsks(viewer)).toEqual(['']);
    expect(viewer.calls).not.toContain('log'); // the baseline's marks come with the level
    expect(shown(viewer.app.getState())).toEqual(['docs', 'src', 'README.md']);

    viewer.calls.length = 0;
    viewer.app.getState().toggleFolder('src', true);
    // Until the level arrives, a row says it is loading (never a blank).
    expect(shown(viewer.app.getState())).toEqual(['docs', 'src', '  [Loading…]', 'README.md']);
    await viewer.until(levelReady('src'));
    expect(shown(viewer.app.getState())).toEqual(['docs', 'src', '  lib', '  app.ts', 'README.md']);
    expect(folderAsks(viewer)).toEqual(['src']);

    // Closed and opened again: the level read before is drawn, nothing is asked.
    viewer.calls.length = 0;
    viewer.app.getState().toggleFolder('src', false);
    expect(shown(viewer.app.getState())).toEqual(['docs', 'src', 'README.md']);
    viewer.app.getState().toggleFolder('src');
    expect(shown(viewer.app.getState())).toEqual(['docs', 'src', '  lib', '  app.ts', 'README.md']);
    expect(viewer.calls).toEqual([]);
  });

  it('opens the folders of a file selected elsewhere, one level each', async () => {
    const { viewer } = await project();
    viewer.calls.length = 0;
    // What the tree does for a selection made by a search hit, a timeline row or the address.
    for (const folder of ancestorsOf('src/lib/deep/needle.c')) viewer.app.getState().toggleFolder(folder, true);
    await viewer.until((s) => ['src', 'src/lib', 'src/lib/deep'].every((f) => levelReady(f)(s)));
    expect(folderAsks(viewer).sort()).toEqual(['src', 'src/lib', 'src/lib/deep']);
    expect(shown(viewer.app.getState())).toEqual(['docs', 'src', '  lib', '    deep', '      needle.c', '    b.ts', '  app.ts', 'README.md']);
  });

  it('reads the root and the open folders again when a change is recorded, marks included', async () => {
    const { viewer, root, projectId } = await project();
    const s = viewer.app.getState();
    s.toggleFolder('src', true);
    s.toggleFolder('docs', true);
    await viewer.until((st) => levelReady('src')(st) && levelReady('docs')(st));
    viewer.app.getState().toggleFolder('docs', false);

    viewer.calls.length = 0;
    writeFileSync(join(root, 'src/added.ts'), 'new\n');
    rmSync(join(root, 'src/app.ts'));
    await viewer.engine.rescan(projectId);
    await viewer.refreshed();
    // The root and the open folder; the closed folder's level is forgotten, not read.
    expect(folderAsks(viewer).sort()).toEqual(['', 'src']);
    expect(viewer.app.getState().levels.has('docs')).toBe(false);
    const src = viewer.app.getState().levels.get('src');
    expect(src?.status === 'ready' && src.level.files.map((f) => [f.name, f.changed])).toEqual([['added.ts', true]]);
    expect(shown(viewer.app.getState())).toEqual(['docs', 'src', '  lib', '  added.ts', 'README.md']);
    // The deleted file, where it was, with the deleted files shown; the folder marked changed.
    viewer.app.getState().setShowDeleted(true);
    expect(shown(viewer.app.getState())).toEqual(['docs', 'src', '  lib', '  added.ts', '  app.ts', 'README.md']);
    expect(levelRows(viewer.app.getState().levels, viewer.app.getState().expanded, true).find((r) => r.node.path === 'src')!.node.changed).toBe(true);
    expect(viewer.app.getState().deleted.map((d) => d.path)).toEqual(['src/app.ts']);

    // Opening the forgotten folder reads it again.
    viewer.calls.length = 0;
    viewer.app.getState().toggleFolder('docs', true);
    await viewer.until(levelReady('docs'));
    expect(folderAsks(viewer)).toEqual(['docs']);
  });

  it('keeps a level that could not be read as failed, with why, and asks again when the folder is opened again', async () => {
    const { viewer } = await project();
    viewer.calls.length = 0;
    // A folder the contract refuses (outside the project) stands for any level that fails.
    viewer.app.getState().toggleFolder('../outside', true);
    await viewer.until((s) => s.levels.get('../outside')?.status === 'error');
    const failed = viewer.app.getState().levels.get('../outside');
    expect(failed?.status === 'error' && failed.error.code).toBe('BAD_REQUEST');
    viewer.app.getState().toggleFolder('../outside', false);
    viewer.app.getState().toggleFolder('../outside', true);
    await viewer.until((s) => s.levels.get('../outside')?.status === 'error');
    expect(folderAsks(viewer)).toEqual(['../outside', '../outside']);
    // The root level is untouched by a failed folder.
    expect(viewer.app.getState().treeStatus).toBe('ready');
  });

  it('reads every path for the filter the first time it is used, and finds a deep file', async () => {
    const { viewer, root, projectId } = await project();
    writeFileSync(join(root, 'src/lib/deep/needle.c'), 'edited\n');
    await viewer.engine.rescan(projectId);
    await viewer.refreshed();
    expect(viewer.app.getState().allFiles).toBeNull();
    viewer.calls.length = 0;
    viewer.app.getState().setFilter('needle');
    await viewer.until((s) => s.fileListStatus === 'ready' && s.changed.has('src/lib/deep/needle.c'));
    expect(folderAsks(viewer)).toEqual(['(every file)', '(every file)']); // now, and the baseline's for the marks
    const s = viewer.app.getState();
    const rows = visibleRows(buildTree(s.allFiles!, s.deleted, s.changed, false), s.expanded, s.filter);
    expect(names(rows)).toEqual(['src', '  lib', '    deep', '      needle.c']);

    // Used again: read once only.
    viewer.calls.length = 0;
    viewer.app.getState().setFilter('');
    viewer.app.getState().setFilter('*.md');
    expect(viewer.calls).toEqual([]);
  });
});
