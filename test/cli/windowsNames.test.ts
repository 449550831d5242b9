import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ImportResult, MaterializeResult, RestorePreview, RestoreSnapshotResult } from '../../shared/contract/values.js';
import { cliJson, runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { writeTree } from '../helpers/writeTree.js';

// A history recorded on Linux brought to Windows: names Windows cannot hold are listed at import
// and skipped by a restore with a line each, the rest written. Windows' rules are asked for with
// HINDSIGHT_WINDOWS_NAMES=on, as they apply by themselves on win32.

describe('names Windows cannot hold', () => {
  it('are listed at import and skipped by a restore, the rest written', async () => {
    const linux = tempDir();
    const linuxData = tempDir('hindsight-data-');
    writeTree(linux, { CON: 'device', 'src/aux.txt': 'aux', 'notes.': 'dot', 'a:b.txt': 'colon', 'ok.txt': 'fine', 'src/main.c': 'int main;' });
    await cliJson(['open', linux, '--data-dir', linuxData]);
    const bundle = join(tempDir(), 'history.hsb');
    await cliJson(['export', linux, '--to', bundle, '--data-dir', linuxData]);

    const windows = { HINDSIGHT_WINDOWS_NAMES: 'on' };
    const root = tempDir();
    const data = tempDir('hindsight-data-');
    const cli = (...args: string[]) => [...args, '--data-dir', data];
    const imported = await runCli(cli('import', bundle, '--as', root, '--json'), windows);
    expect(imported.code).toBe(0);
    expect((JSON.parse(imported.stdout.toString()) as ImportResult).unwritableNames).toEqual([
      { path: 'CON', problem: 'reserved-name' },
      { path: 'a:b.txt', problem: 'reserved-character' },
      { path: 'notes.', problem: 'trailing-dot-or-space' },
      { path: 'src/aux.txt', problem: 'reserved-name' },
    ]);
    expect(imported.stderr).toContain('4 paths of this history cannot be written on Windows');

    const preview = await cliJson<RestorePreview>(cli('restore', root, '--snapshot', '1', '--dry-run'), windows);
    expect(preview.recreate.sort()).toEqual(['ok.txt', 'src/main.c']);
    expect(preview.skipped?.map((s) => s.path)).toEqual(['CON', 'a:b.txt', 'notes.', 'src/aux.txt']);
    const restored = await runCli(cli('restore', root, '--snapshot', '1', '--json'), windows);
    expect(restored.code).toBe(0);
    expect((JSON.parse(restored.stdout.toString()) as RestoreSnapshotResult).recreated).toBe(2);
    expect(restored.stderr).toContain('Skipped 4 files whose name Windows cannot hold');
    expect(restored.stderr).toContain('  src/aux.txt: a name Windows keeps for a device\n');
    expect(readdirSync(root).sort()).toEqual(['ok.txt', 'src']);

    const into = join(tempDir(), 'into');
    const written = await runCli(cli('restore', root, '--snapshot', '1', '--into', into, '--json'), windows);
    expect(written.code).toBe(0);
    expect((JSON.parse(written.stdout.toString()) as MaterializeResult).files).toBe(2);
    expect(written.stderr).toContain('  a:b.txt: a character Windows does not allow in names\n');
    expect(readdirSync(into).sort()).toEqual(['ok.txt', 'src']);

    // Where the rules do not apply, nothing is listed or skipped.
    const plain = await runCli(cli('import', bundle, '--as', tempDir(), '--json'));
    expect((JSON.parse(plain.stdout.toString()) as ImportResult).unwritableNames).toEqual([]);
  });
});
