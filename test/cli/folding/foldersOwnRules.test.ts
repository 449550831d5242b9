import { expect, it } from 'vitest';
import { mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ImportResult } from '../../../shared/contract/values.js';
import { cliJson, runCli } from '../../helpers/runCli.js';
import { describeOnFoldFs, namesExactIn } from '../../helpers/foldMount.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

// One device, two rules (ext4 with casefold flags folders `+F` one by one; NTFS has per-directory
// case sensitivity): a project folder that compares names exactly holding a folder that folds
// them. Names landing in the folding folder are compared as it compares them, whatever the
// project folder's own rules: a restore that would put two of them on one file is refused.

describeOnFoldFs('a restore into folders of one device with different rules', (mount) => {
  it('refuses names that are one file in the folder they land in, and only those', async () => {
    const exact = tempDir();
    const exactData = tempDir('hindsight-data-');
    writeTree(exact, { 'folds/Notes.txt': 'Upper Notes\n', 'folds/notes.txt': 'lower notes\n', 'Top.txt': 'T\n', 'top.txt': 't\n' });
    await cliJson(['open', exact, '--data-dir', exactData]);
    const bundle = join(tempDir(), 'history.hsb');
    await cliJson(['export', exact, '--to', bundle, '--data-dir', exactData]);

    // The project folder tells names apart; its folds/ (holding a file already) does not.
    const root = mkdtempSync(join(mount().dir, 'mixed-'));
    namesExactIn(mount(), root);
    writeTree(root, { 'folds/Keep.md': 'keep\n' });
    const data = mkdtempSync(join(mount().dir, 'data-'));
    const cli = (...args: string[]) => [...args, '--data-dir', data];
    const imported = await runCli(cli('import', bundle, '--as', root, '--json'));
    expect(imported.code).toBe(0);
    expect((JSON.parse(imported.stdout.toString()) as ImportResult).collidingNames).toEqual([['folds/Notes.txt', 'folds/notes.txt']]);

    const refused = await runCli(cli('restore', root, '--snapshot', '1'));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('folds/Notes.txt and folds/notes.txt');
    expect(refused.stderr).not.toContain('Top.txt and top.txt');
    expect(readdirSync(join(root, 'folds'))).toEqual(['Keep.md']);
  });
});
