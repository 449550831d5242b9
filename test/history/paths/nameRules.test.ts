import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { nameRulesOf } from '../../../electron/history/paths/nameRules.js';
import { describeOnFoldFs } from '../../helpers/foldMount.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

// A folder's name rules are found by looking names up in another spelling, never by writing.

function entriesWithTimes(dir: string): string[] {
  return readdirSync(dir).map((name) => `${name}:${statSync(join(dir, name)).mtimeMs}`);
}

describe('name rules of a folder that compares names exactly', () => {
  it('folds nothing', () => {
    const root = tempDir();
    writeTree(root, { 'README.md': 'r', 'café.txt': 'c' });
    expect(nameRulesOf(root)).toEqual({ foldsCase: false, foldsNormalization: false });
  });
});

describeOnFoldFs('name rules of a folder whose names fold', (mount) => {
  it('folds case and normalization, found without writing into the folder', () => {
    const root = mkdtempSync(join(mount().dir, 'rules-'));
    writeTree(root, { 'README.md': 'r', 'café.txt': 'c' });
    const before = entriesWithTimes(root);
    const folderTime = statSync(root).mtimeMs;
    expect(nameRulesOf(root)).toEqual({ foldsCase: true, foldsNormalization: true });
    expect(entriesWithTimes(root)).toEqual(before);
    expect(statSync(root).mtimeMs).toBe(folderTime);
  });
});
