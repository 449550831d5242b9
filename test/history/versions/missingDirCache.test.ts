import { describe, expect, it } from 'vitest';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { commonFolderPrefix, MissingDirCache, type MissingDirStrategy } from '../../../electron/history/versions/missingDirCache.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree, type TreeSpec } from '../../helpers/writeTree.js';
import { notRacy, projectWithBaseline } from './versionsHelpers.js';

// 2,000 files deep under gone/: gone/a{0-9}/b{0-9}/c{0-9}/d/f{0,1}.txt, the shape that made git's
// immediate-parent cache pay for every leaf folder (seed 004).
function deepTree(): TreeSpec {
  const spec: TreeSpec = { 'keep/x.txt': 'kept', 'z.txt': 'z' };
  for (let a = 0; a < 10; a++)
    for (let b = 0; b < 10; b++) for (let c = 0; c < 10; c++) for (let f = 0; f < 2; f++) spec[`gone/a${a}/b${b}/c${c}/d/f${f}.txt`] = `${a}${b}${c}${f}`;
  return spec;
}

function lstatsToCheck(root: string, paths: string[], strategy: MissingDirStrategy): { lstat: number; present: number } {
  resetTrace();
  const cache = new MissingDirCache(root, strategy);
  const present = paths.filter((p) => cache.check(p) !== undefined).length;
  return { lstat: counter('rescan.lstat'), present };
}

describe('the missing-folder cache', () => {
  it('checks a deleted folder of 2,000 deep paths with 2 lstats against 2,000 for an immediate-parent cache', async () => {
    const projects = await Promise.all([projectWithBaseline(deepTree()), projectWithBaseline(deepTree())]);
    const counts: Record<string, number> = {};
    for (const [i, strategy] of (['top-most', 'parent'] as const).entries()) {
      const { engine, root, store, projectId } = projects[i]!;
      rmSync(join(root, 'gone'), { recursive: true });
      notRacy(store);
      resetTrace();
      const result = await engine.rescan(projectId, { strategy });
      expect(result.changed).toBe(2000);
      expect(counter('rescan.paths')).toBe(2002);
      counts[strategy] = counter('rescan.lstat');
    }
    // top-most: the first missing path, then `gone` itself; every other path costs nothing.
    // parent: each of the 1,000 leaf folders pays for its first file and for its parent.
    expect(counts).toEqual({ 'top-most': 2, parent: 2000 });
  }, 240_000); // two first copies of 2,002 files: minutes on a loaded machine

  it('walks down only from the deepest folder known to exist when part of the tree is still there', () => {
    const root = tempDir();
    const paths = Object.keys(deepTree())
      .filter((p) => p.startsWith('gone/'))
      .sort();
    writeTree(root, { 'keep/x.txt': 'kept' });
    mkdirSync(join(root, 'gone/a0'), { recursive: true }); // gone/ and gone/a0/ exist, empty
    const topMost = lstatsToCheck(root, paths, 'top-most');
    const parent = lstatsToCheck(root, paths, 'parent');
    expect(topMost.present).toBe(0);
    expect(parent.present).toBe(0);
    // gone/a0/b*: one lstat for the first path of each b folder and one for that folder (20),
    // plus gone and gone/a0 found once (2); gone/a1..a9: a path and its a folder each (18).
    expect(topMost.lstat).toBe(40);
    expect(parent.lstat).toBe(2000);
  });

  it('still finds every path that is present, in any folder', () => {
    const root = tempDir();
    writeTree(root, { 'a/b/c.txt': '1', 'a/b2/c.txt': '2', 'a/x.txt': '3', 'q.txt': '4' });
    const paths = ['a/b/c.txt', 'a/b/d/e.txt', 'a/b2/c.txt', 'a/missing/deep/f.txt', 'a/missing/g.txt', 'a/x.txt', 'b/y/z.txt', 'q.txt'];
    for (const strategy of ['top-most', 'parent'] as const) {
      const cache = new MissingDirCache(root, strategy);
      const found = paths.filter((p) => cache.check(p) !== undefined);
      expect(found).toEqual(['a/b/c.txt', 'a/b2/c.txt', 'a/x.txt', 'q.txt']);
    }
  });

  it('finds the folders two paths share', () => {
    expect(commonFolderPrefix('a/b/c', 'a/b/d/')).toBe('a/b/');
    expect(commonFolderPrefix('a/bc/x', 'a/b/')).toBe('a/');
    expect(commonFolderPrefix('x', '')).toBe('');
  });
});
