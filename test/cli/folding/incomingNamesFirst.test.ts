import { expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ImportResult } from '../../../shared/contract/values.js';
import { cliJson, finished, runCli, startCli } from '../../helpers/runCli.js';
import { describeOnFoldFs } from '../../helpers/foldMount.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { until } from '../../helpers/until.js';
import { writeTree } from '../../helpers/writeTree.js';

// An import into a folder whose names fold says which incoming names would be one file there as
// soon as it knows them, before the folder is registered or a blob written: a user who stops it
// midway has seen them. Its --json answer still carries them.

describeOnFoldFs('an import told its colliding names before it writes', (mount) => {
  it('names the pair before the folder is registered; killed there, nothing was written', async () => {
    const exact = tempDir();
    const exactData = tempDir('hindsight-data-');
    writeTree(exact, { 'Notes.txt': 'Upper Notes\n', 'notes.txt': 'lower notes\n' });
    await cliJson(['open', exact, '--data-dir', exactData]);
    const bundle = join(tempDir(), 'history.hsb');
    await cliJson(['export', exact, '--to', bundle, '--data-dir', exactData]);
    const root = mkdtempSync(join(mount().dir, 'first-'));
    const data = mkdtempSync(join(mount().dir, 'data-'));

    const child = startCli(['import', bundle, '--as', root, '--json', '--data-dir', data], { HINDSIGHT_STOP_AT: 'import-registering' });
    const done = finished(child);
    let told = '';
    child.stderr!.on('data', (chunk: Buffer) => (told += chunk.toString()));
    await until(() => told.includes('stopped at import-registering'));
    expect(told).toContain('  Notes.txt and notes.txt\n');
    child.kill('SIGKILL');
    await done;
    // No store was made for the folder: the names came before the first write.
    const projects = join(data, 'projects');
    expect(existsSync(projects) ? readdirSync(projects) : []).toEqual([]);

    const imported = await runCli(['import', bundle, '--as', root, '--json', '--data-dir', data]);
    expect(imported.code).toBe(0);
    expect(imported.stderr.match(/Notes\.txt and notes\.txt/g)).toHaveLength(1);
    expect((JSON.parse(imported.stdout.toString()) as ImportResult).collidingNames).toEqual([['Notes.txt', 'notes.txt']]);
  });
});
