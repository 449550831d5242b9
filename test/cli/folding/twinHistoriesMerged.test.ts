import { expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectStoreDir } from '../../../electron/history/store/storeLayout.js';
import { cliJson, runCli } from '../../helpers/runCli.js';
import { describeOnFoldFs } from '../../helpers/foldMount.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { sha256, writeTree } from '../../helpers/writeTree.js';

// One folder of the fold layer with a history under each of two spellings, as a Hindsight that
// took the path as typed left it: `rd` recorded first, then the folder renamed `RD` and recorded
// again as a project of its own (made here in a second data folder and brought into the first,
// store and config.json entry, since this Hindsight would take the first history along instead).
// The next open merges the twin into the disk spelling's history.

interface Opened {
  projectId: string;
  repaired?: string[];
}
interface Known {
  id: string;
  root: string;
}

describeOnFoldFs('a folder with a history under each of two spellings', (mount) => {
  it('has the twin merged into the history of its spelling on disk', async () => {
    const base = mkdtempSync(join(mount().dir, 'twins-'));
    const data = tempDir('hindsight-data-');
    const otherData = tempDir('hindsight-data-');
    const cli = (...args: string[]) => [...args, '--data-dir', data];
    writeTree(join(base, 'rd'), { 'a.txt': 'a1\n', 'Notes.txt': 'n1\n' });
    const first = await cliJson<Opened>(cli('open', join(base, 'rd')));
    writeTree(join(base, 'rd'), { 'a.txt': 'a2\n' });
    await cliJson(cli('open', join(base, 'rd')));

    renameSync(join(base, 'rd'), join(base, 'RD'));
    // Renamed in case too: the twin recorded `notes.txt`, this history `Notes.txt`; the merge is then joined.
    renameSync(join(base, 'RD', 'Notes.txt'), join(base, 'RD', 'notes.txt'));
    writeTree(join(base, 'RD'), { 'b.txt': 'b1\n' });
    const second = await cliJson<Opened>(['open', join(base, 'RD'), '--data-dir', otherData]);
    expect(second.projectId).not.toBe(first.projectId);
    renameSync(projectStoreDir(otherData, second.projectId), projectStoreDir(data, second.projectId));
    const config = JSON.parse(readFileSync(join(data, 'config.json'), 'utf8')) as { projects: Known[] };
    const other = JSON.parse(readFileSync(join(otherData, 'config.json'), 'utf8')) as { projects: Known[] };
    for (const project of other.projects) config.projects.push(project);
    writeFileSync(join(data, 'config.json'), JSON.stringify(config, null, 2));

    writeTree(join(base, 'RD'), { 'a.txt': 'a3\n' });
    const opened = await runCli(cli('open', join(base, 'rd'), '--json'));
    expect(opened.code).toBe(0);
    expect(opened.stderr.toString()).toContain(`The history recorded for ${join(base, 'rd')} is of ${join(base, 'RD')} too`);
    expect((JSON.parse(opened.stdout.toString()) as Opened).projectId).toBe(second.projectId);

    expect((await cliJson<Known[]>(cli('projects'))).map((p) => p.root)).toEqual([join(base, 'RD')]);
    expect(existsSync(projectStoreDir(data, first.projectId))).toBe(false);
    const a = await cliJson<{ hash: string }[]>(cli('log', join(base, 'RD'), 'a.txt'));
    expect(a.map((v) => v.hash)).toEqual([sha256('a1\n'), sha256('a2\n'), sha256('a3\n')]);
    const b = await cliJson<{ hash: string }[]>(cli('log', join(base, 'RD'), 'b.txt'));
    expect(b.map((v) => v.hash)).toEqual([sha256('b1\n')]);
    const notes = await cliJson<{ path: string; hash: string }[]>(cli('log', join(base, 'RD'), 'notes.txt'));
    expect(notes.map((v) => [v.path, v.hash])).toEqual([['notes.txt', sha256('n1\n')]]);
    const files = await cliJson<{ path: string }[]>(cli('files', join(base, 'RD')));
    expect(files.map((f) => f.path)).toEqual(['a.txt', 'b.txt', 'notes.txt']);
    expect(await cliJson<unknown[]>(cli('deleted', join(base, 'RD')))).toEqual([]);
    expect(opened.stderr.toString()).toContain('Joined 1 file recorded under two spellings of one name (Notes.txt, notes.txt as notes.txt)');
    expect(await cliJson<unknown[]>(cli('log', join(base, 'RD')))).toHaveLength(4);
    expect((await runCli(cli('verify', join(base, 'RD')))).code).toBe(0);
  });
});
