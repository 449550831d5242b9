import { describe, expect, it } from 'vitest';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { folderMismatch } from '../../../renderer/features/project/folderMismatch.js';
import { cliJson } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { openInViewer, startViewer } from './viewerHarness.js';

// A history imported for a folder that does not hold its files: the viewer says so instead of a
// tree of deletions. A real bundle through the real CLI, imported for an empty folder and for one
// holding one file in twenty; a person's own deletion of a few files is not taken for it.

async function importedInto(fill: (dst: string) => void) {
  const src = tempDir();
  const files: Record<string, string> = {};
  for (let i = 0; i < 20; i++) files[`dir${i % 3}/f${i}.txt`] = `file ${i}\n`;
  writeTree(src, files);
  const first = tempDir('hindsight-data-');
  await cliJson(['open', src, '--data-dir', first]);
  const bundle = join(tempDir(), 'h.hsb');
  await cliJson(['export', src, '--to', bundle, '--data-dir', first]);
  const dst = join(tempDir(), 'copy');
  mkdirSync(dst);
  fill(dst);
  const dataDir = tempDir('hindsight-data-');
  await cliJson(['import', bundle, '--as', dst, '--data-dir', dataDir]);
  const viewer = await startViewer({ dataDir });
  await openInViewer(viewer, dst);
  const state = viewer.app.getState();
  const root = state.levels.get('');
  if (root?.status !== 'ready') throw new Error('the root level is not read');
  return { viewer, mismatch: folderMismatch(root.level, state.deleted), dst };
}

describe('a folder that does not hold its history’s files', () => {
  it('is told for an empty folder', async () => {
    const { mismatch } = await importedInto(() => undefined);
    expect(mismatch).toBe('empty');
  });

  it('is told for a folder holding one file in twenty', async () => {
    const { mismatch } = await importedInto((dst) => writeTree(dst, { 'dir0/f0.txt': 'file 0\n' }));
    expect(mismatch).toBe('partial');
  });

  it('is not told when a person deletes a few files of their own folder', async () => {
    const viewer = await startViewer();
    const root = tempDir();
    writeTree(root, { 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c', 'd/e.txt': 'e' });
    const projectId = await openInViewer(viewer, root);
    rmSync(join(root, 'a.txt'));
    rmSync(join(root, 'd'), { recursive: true });
    writeFileSync(join(root, 'b.txt'), 'bb');
    await viewer.engine.rescan(projectId);
    await viewer.refreshed();
    const state = viewer.app.getState();
    const level = state.levels.get('');
    if (level?.status !== 'ready') throw new Error('the root level is not read');
    expect(state.deleted.map((d) => d.path).sort()).toEqual(['a.txt', 'd/e.txt']);
    expect(folderMismatch(level.level, state.deleted)).toBeNull();
  });
});
