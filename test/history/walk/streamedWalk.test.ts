import { describe, expect, it } from 'vitest';
import { walkFolder, type WalkEntry } from '../../../electron/history/walk/walkFolder.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree, type TreeSpec } from '../../helpers/writeTree.js';

// A first copy's walk (walkJob.ts) hands every entry on and keeps none: walkFolder with
// streamOnly tells each folder's entries once, holds no list of them, and answers none.

describe('a walk that keeps no entry', () => {
  it('tells every entry once, each folder as its own group, and answers none', async () => {
    const root = tempDir();
    const spec: TreeSpec = { 'top.txt': 't', link: { link: 'top.txt' } };
    for (let i = 0; i < 30; i++) spec[`d${i % 3}/f${i}.txt`] = `${i}`;
    writeTree(root, spec);
    const groups: WalkEntry[][] = [];
    const answered = await walkFolder(root, { streamOnly: true, onEntries: (found) => groups.push(found) });
    expect(answered).toEqual([]);
    const told = groups.flat().map((e) => e.path);
    expect(told.sort()).toEqual((await walkFolder(root)).map((e) => e.path).sort());
    expect(new Set(told).size).toBe(32);
    expect(groups).toHaveLength(4);
  });
});
