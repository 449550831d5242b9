import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileEntry, VersionInfo } from '../../shared/history.js';
import type { ImportResult } from '../../shared/contract/values.js';
import { displayPath } from '../../shared/fileNameBytes.js';
import { cliJson, runCli, withoutVersionNote } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { readTree, writeTree } from '../helpers/writeTree.js';

// A backslash is an ordinary character of a name on Linux and macOS, and so is a colon after a
// letter: the walk records such names, so every command that takes or reads back a project path
// accepts them (show, log, each restore, export and import). The CLI takes a path in the form it
// shows (displayPath: a backslash as `\\`).

const NAMES = ['a\\b.txt', 'dir\\name/x', 'dir\\name/sub\\deeper\\c.txt', 'C:drive.txt', 'plain.txt'];

function project() {
  const root = tempDir();
  const data = tempDir('hindsight-data-');
  writeTree(root, Object.fromEntries(NAMES.map((name, i) => [name, `${name} ${i}\n`])));
  return { root, data, cli: (...args: string[]) => [...args, '--data-dir', data] };
}

describe('names holding a backslash', () => {
  it('are recorded, shown, logged and restored by file, by snapshot and into a new folder', async () => {
    const { root, cli } = project();
    const before = readTree(root);
    await cliJson(cli('open', root));
    expect((await cliJson<FileEntry[]>(cli('files', root))).map((f) => f.path)).toEqual([...NAMES].sort());

    const shown = await runCli(cli('show', root, displayPath('a\\b.txt')));
    expect([shown.code, shown.stderr, shown.stdout.toString()]).toEqual([0, '', 'a\\b.txt 0\n']);

    writeFileSync(join(root, 'a\\b.txt'), 'edited\n');
    writeFileSync(join(root, 'dir\\name/sub\\deeper\\c.txt'), 'edited too\n');
    await cliJson(cli('open', root));
    const versions = await cliJson<VersionInfo[]>(cli('log', root, displayPath('a\\b.txt')));
    expect(versions.map((v) => v.path)).toEqual(['a\\b.txt', 'a\\b.txt']);
    const text = await runCli(cli('log', root, displayPath('a\\b.txt')));
    expect([text.code, withoutVersionNote(text.stderr)]).toEqual([0, '']);

    const restored = await runCli(cli('restore', root, displayPath('a\\b.txt'), '--version', String(Math.min(versions[0]!.versionId, versions[1]!.versionId))));
    expect([restored.code, restored.stderr]).toEqual([0, '']);
    expect(readFileSync(join(root, 'a\\b.txt'), 'utf8')).toBe('a\\b.txt 0\n');

    const folder = await runCli(cli('restore', root, '--snapshot', '1', '--path', displayPath('dir\\name')));
    expect([folder.code, folder.stderr]).toEqual([0, '']);
    expect(readTree(root)).toEqual(before);

    writeFileSync(join(root, 'C:drive.txt'), 'edited\n');
    await cliJson(cli('open', root));
    const whole = await runCli(cli('restore', root, '--snapshot', '1'));
    expect([whole.code, whole.stderr]).toEqual([0, '']);
    expect(readTree(root)).toEqual(before);

    const into = join(tempDir(), 'copy');
    const written = await runCli(cli('restore', root, '--snapshot', '1', '--into', into));
    expect([written.code, written.stderr]).toEqual([0, '']);
    expect(readTree(into)).toEqual(before);
  });

  it('travel in a bundle: export, then import as another folder into another data folder', async () => {
    const { root, cli } = project();
    const before = readTree(root);
    await cliJson(cli('open', root));
    const bundle = join(tempDir(), 'history.hsb');
    const exported = await runCli(cli('export', root, '--to', bundle));
    expect([exported.code, exported.stderr]).toEqual([0, '']);

    const other = tempDir();
    const otherData = tempDir('hindsight-data-');
    const imported = await cliJson<ImportResult>(['import', bundle, '--as', other, '--data-dir', otherData]);
    expect(imported).toMatchObject({ root: other, snapshots: 1, added: 1 });
    expect((await cliJson<FileEntry[]>(['files', other, '--data-dir', otherData])).map((f) => f.path)).toEqual([...NAMES].sort());
    const into = join(tempDir(), 'copy');
    const written = await runCli(['restore', other, '--snapshot', '1', '--into', into, '--data-dir', otherData]);
    expect([written.code, written.stderr]).toEqual([0, '']);
    expect(readTree(into)).toEqual(before);
  });
});
