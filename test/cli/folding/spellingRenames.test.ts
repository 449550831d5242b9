import { expect, it } from 'vitest';
import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { VersionInfo } from '../../../shared/history.js';
import { cliJson } from '../../helpers/runCli.js';
import { describeOnFoldFs } from '../../helpers/foldMount.js';
import { writeTree } from '../../helpers/writeTree.js';

// Where names fold, a name changed only in case or normalization is a rename: one file whose
// history goes on under the new spelling, no phantom path left behind. A file replaced by one whose
// name differs only in case is a change of that file.

interface FileRow {
  path: string;
}

describeOnFoldFs('a name changed only in spelling', (mount) => {
  const project = (files: Parameters<typeof writeTree>[1]) => {
    const root = mkdtempSync(join(mount().dir, 'spelling-'));
    writeTree(root, files);
    const data = mkdtempSync(join(mount().dir, 'data-'));
    return { root, cli: (...args: string[]) => [...args, '--data-dir', data] };
  };
  const files = async (cli: (...args: string[]) => string[], root: string) => (await cliJson<FileRow[]>(cli('files', root))).map((f) => f.path);
  const log = async (cli: (...args: string[]) => string[], root: string, path: string) =>
    (await cliJson<VersionInfo[]>(cli('log', root, path))).map((v) => [v.path, v.renamedFrom]);

  it('README.md renamed readme.md, then edited, is one file', async () => {
    const { root, cli } = project({ 'README.md': 'one\n', 'Src/main.c': 'int main;\n', 'café.txt': 'c\n' });
    await cliJson(cli('open', root));
    renameSync(join(root, 'README.md'), join(root, 'readme.md'));
    renameSync(join(root, 'Src'), join(root, 'src'));
    renameSync(join(root, 'café.txt'), join(root, 'CAFE\u0301.txt'));
    await cliJson(cli('open', root));
    expect(await files(cli, root)).toEqual(['CAFE\u0301.txt', 'readme.md', 'src/main.c']);
    writeFileSync(join(root, 'readme.md'), 'two\n');
    await cliJson(cli('open', root));
    expect(await files(cli, root)).toEqual(['CAFE\u0301.txt', 'readme.md', 'src/main.c']);
    expect(await log(cli, root, 'readme.md')).toEqual([
      ['README.md', null],
      ['readme.md', 'README.md'],
      ['readme.md', null],
    ]);
    expect(await log(cli, root, 'src/main.c')).toEqual([
      ['Src/main.c', null],
      ['src/main.c', 'Src/main.c'],
    ]);
    // The old spellings end as a plain mv's old path does: restorable, under a name the folder now gives the new file.
    const deleted = await cliJson<FileRow[]>(cli('deleted', root));
    expect(deleted.map((f) => f.path).sort()).toEqual(['README.md', 'Src/main.c', 'café.txt']);
  });

  it('a.txt replaced by A.TXT with other bytes is a change of that file', async () => {
    const { root, cli } = project({ 'a.txt': 'lower\ncase\nlines\n' });
    await cliJson(cli('open', root));
    writeFileSync(join(root, 'new.tmp'), 'UPPER, ALL NEW\n');
    renameSync(join(root, 'new.tmp'), join(root, 'A.TXT'));
    await cliJson(cli('open', root));
    expect(await files(cli, root)).toEqual(['A.TXT']);
    expect(await log(cli, root, 'A.TXT')).toEqual([
      ['a.txt', null],
      ['A.TXT', 'a.txt'],
    ]);
  });
});
