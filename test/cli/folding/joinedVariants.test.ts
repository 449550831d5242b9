import { expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { cliJson } from '../../helpers/runCli.js';
import { describeOnFoldFs } from '../../helpers/foldMount.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

// A history holding one file under two spellings (`README.md` and `readme.md`, as an older
// Hindsight recorded a case-only rename on a folder whose names fold) is joined by the next open
// there: the spelling on disk goes on, the other ends as a deletion, and later edits are recorded once.

interface FileRow {
  path: string;
}

describeOnFoldFs('paths recorded twice under case variants', (mount) => {
  it('are joined by the next open: one file goes on', async () => {
    const exact = tempDir();
    const exactData = tempDir('hindsight-data-');
    writeTree(exact, { 'README.md': 'read me\n', 'readme.md': 'read me\n', 'other.txt': 'x\n' });
    await cliJson(['open', exact, '--data-dir', exactData]);
    const bundle = join(tempDir(), 'history.hsb');
    await cliJson(['export', exact, '--to', bundle, '--data-dir', exactData]);

    const root = mkdtempSync(join(mount().dir, 'joined-'));
    const data = mkdtempSync(join(mount().dir, 'data-'));
    const cli = (...args: string[]) => [...args, '--data-dir', data];
    writeTree(root, { 'readme.md': 'read me\n', 'other.txt': 'x\n' });
    await cliJson(cli('import', bundle, '--as', root));
    await cliJson(cli('open', root));
    expect((await cliJson<FileRow[]>(cli('files', root))).map((f) => f.path)).toEqual(['other.txt', 'readme.md']);
    writeTree(root, { 'readme.md': 'edited\n' });
    await cliJson(cli('open', root));
    expect((await cliJson<unknown[]>(cli('log', root, 'readme.md'))).length).toBe(2);
    expect((await cliJson<FileRow[]>(cli('files', root))).map((f) => f.path)).toEqual(['other.txt', 'readme.md']);
  });
});
