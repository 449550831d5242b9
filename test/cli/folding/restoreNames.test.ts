import { expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { ImportResult, RestorePreview, RestoreSnapshotResult } from '../../../shared/contract/values.js';
import { cliJson, runCli } from '../../helpers/runCli.js';
import { describeOnFoldFs } from '../../helpers/foldMount.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { readTree, writeTree } from '../../helpers/writeTree.js';

// A restore never merges two names into one where names fold: a snapshot holding `Notes.txt` and
// `notes.txt` is refused before anything is written, in place, in a dry run and --into such a
// folder, naming the pair; --into a folder that tells them apart writes both. --delete-added never
// deletes a file the snapshot holds under another spelling, and the dry run says what the run does.

describeOnFoldFs('a restore where names fold', (mount) => {
  it('refuses a snapshot holding two names that are one file there, naming the pair, writing nothing', async () => {
    // Recorded where names are exact, then brought into a folder whose names fold.
    const exact = tempDir();
    const exactData = tempDir('hindsight-data-');
    writeTree(exact, { 'Notes.txt': 'Upper Notes\n', 'notes.txt': 'lower notes\n', 'other.txt': 'other\n' });
    await cliJson(['open', exact, '--data-dir', exactData]);
    const bundle = join(tempDir(), 'history.hsb');
    await cliJson(['export', exact, '--to', bundle, '--data-dir', exactData]);
    const root = mkdtempSync(join(mount().dir, 'names-'));
    const data = mkdtempSync(join(mount().dir, 'data-'));
    const cli = (...args: string[]) => [...args, '--data-dir', data];
    // The import says which names collide there, before a restore is tried.
    const imported = await runCli(cli('import', bundle, '--as', root, '--json'));
    expect(imported.code).toBe(0);
    expect(imported.stderr).toContain('would be one file in');
    expect(imported.stderr).toContain('  Notes.txt and notes.txt\n');
    expect((JSON.parse(imported.stdout.toString()) as ImportResult).collidingNames).toEqual([['Notes.txt', 'notes.txt']]);
    const before = readdirSync(root);

    for (const extra of [[], ['--dry-run']]) {
      const refused = await runCli(cli('restore', root, '--snapshot', '1', ...extra));
      expect(refused.code, extra.join(' ')).toBe(1);
      expect(refused.stderr).toContain('Notes.txt and notes.txt');
      expect(refused.stderr).toContain('--into a folder on a case-sensitive file system');
    }
    expect(readdirSync(root)).toEqual(before);

    const into = join(mount().dir, 'restored-here');
    const intoFolding = await runCli(cli('restore', root, '--snapshot', '1', '--into', into));
    expect(intoFolding.code).toBe(1);
    expect(intoFolding.stderr).toContain('Notes.txt and notes.txt');
    expect(existsSync(into)).toBe(false);

    const apart = join(tempDir(), 'apart');
    await cliJson(cli('restore', root, '--snapshot', '1', '--into', apart));
    expect(Object.keys(readTree(apart)).sort()).toEqual(['Notes.txt', 'notes.txt', 'other.txt']);
  });

  it('--delete-added keeps a file the snapshot holds under another spelling, as its dry run says', async () => {
    const root = mkdtempSync(join(mount().dir, 'added-'));
    const data = mkdtempSync(join(mount().dir, 'data-'));
    const cli = (...args: string[]) => [...args, '--data-dir', data];
    writeTree(root, { 'Src/main.c': 'int main;\n', 'docs/a.md': 'a\n' });
    await cliJson(cli('open', root));
    renameSync(join(root, 'Src'), join(root, 'src'));
    renameSync(join(root, 'docs'), join(root, 'Docs'));
    writeTree(root, { 'new.txt': 'added\n' });
    await cliJson(cli('open', root));

    const preview = await cliJson<RestorePreview>(cli('restore', root, '--snapshot', '1', '--delete-added', '--dry-run'));
    expect(preview.delete).toEqual(['new.txt']);
    const run = await cliJson<RestoreSnapshotResult>(cli('restore', root, '--snapshot', '1', '--delete-added'));
    expect(run.deleted).toBe(1);
    expect(readdirSync(root).sort()).toEqual(['Docs', 'src']);
    expect(readFileSync(join(root, 'src/main.c'), 'utf8')).toBe('int main;\n');
    expect(readFileSync(join(root, 'Docs/a.md'), 'utf8')).toBe('a\n');
  });
});
