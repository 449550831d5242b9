import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { forgetNameRules, knownRules, nameRulesOf } from '../../../electron/history/paths/nameRules.js';
import { casefoldKernelBlocker, mountCasefoldFs } from '../../helpers/casefoldMount.js';
import { describeOnFoldFs, namesExactIn } from '../../helpers/foldMount.js';
import { mountOrSkip } from '../../helpers/mountOrSkip.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

// A folder's name rules are found by looking names up in another spelling, never by writing; where
// one device's folders may differ (ext4's casefold flag, NTFS per-directory case sensitivity, a
// FUSE layer), each folder is looked at on its own, whichever of them was asked first.

afterEach(() => forgetNameRules());

function entriesWithTimes(dir: string): string[] {
  return readdirSync(dir).map((name) => `${name}:${statSync(join(dir, name)).mtimeMs}`);
}

const FOLDS = { foldsCase: true, foldsNormalization: true };
const EXACT = { foldsCase: false, foldsNormalization: false };

describe('name rules of a folder that compares names exactly', () => {
  it('folds nothing', () => {
    const root = tempDir();
    writeTree(root, { 'README.md': 'r', 'café.txt': 'c' });
    expect(nameRulesOf(root)).toEqual(EXACT);
  });
});

describeOnFoldFs('name rules of a folder whose names fold', (mount) => {
  it('folds case and normalization, found without writing into the folder', () => {
    const root = mkdtempSync(join(mount().dir, 'rules-'));
    writeTree(root, { 'README.md': 'r', 'café.txt': 'c' });
    const before = entriesWithTimes(root);
    const folderTime = statSync(root).mtimeMs;
    expect(nameRulesOf(root)).toEqual(FOLDS);
    expect(entriesWithTimes(root)).toEqual(before);
    expect(statSync(root).mtimeMs).toBe(folderTime);
  });

  for (const order of ['the folding folder first', 'the exact folder first']) {
    it(`a folder of the same device flagged to compare names exactly has its own rules (${order})`, () => {
      const root = mkdtempSync(join(mount().dir, 'flagged-'));
      writeTree(root, { 'README.md': 'r', 'exact/Notes.txt': 'N', 'exact/notes.txt': 'n', 'exact/inner/Deep.txt': 'd' });
      namesExactIn(mount(), join(root, 'exact'));
      const asked = order === 'the folding folder first' ? [root, join(root, 'exact')] : [join(root, 'exact'), root];
      const answers = asked.map((dir) => nameRulesOf(dir));
      expect(order === 'the folding folder first' ? answers : answers.reverse()).toEqual([FOLDS, EXACT]);
      // The device has no one answer: a caller holding only a device number looks at the folder.
      expect(knownRules(statSync(root).dev)).toBeUndefined();
    });
  }
});

describe('name rules on ext4 with casefold, set per folder', () => {
  it('a folder flagged +F folds case, its sibling on the same device does not (an ext4 casefold loop file system; skipped where none can be mounted)', (ctx) => {
    const blocker = casefoldKernelBlocker();
    if (blocker !== null) ctx.skip(blocker);
    const mounted = mountOrSkip(ctx, mountCasefoldFs(), 'an ext4 file system with casefold');
    try {
      const folded = join(mounted.dir, 'folded');
      const exact = join(mounted.dir, 'exact');
      mkdirSync(folded);
      mounted.foldCaseIn(folded);
      mkdirSync(exact);
      writeTree(folded, { 'README.md': 'r' });
      writeTree(exact, { 'README.md': 'r', 'readme.md': 'other' });
      expect(nameRulesOf(exact).foldsCase).toBe(false);
      expect(nameRulesOf(folded).foldsCase).toBe(true);
      forgetNameRules();
      expect(nameRulesOf(folded).foldsCase).toBe(true);
      expect(nameRulesOf(exact).foldsCase).toBe(false);
    } finally {
      mounted.unmount();
    }
  });
});
