import { expect, it } from 'vitest';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { cliJson, runCli } from '../../helpers/runCli.js';
import { describeOnFoldFs } from '../../helpers/foldMount.js';
import { writeTree } from '../../helpers/writeTree.js';

// On a folder that folds case and normalization, a folder typed in another spelling is the same
// folder: one project, its data folder never recorded, a restore --into it refused, a file typed
// in another spelling found.

interface Opened {
  projectId: string;
  root: string;
}
interface FileRow {
  path: string;
}

describeOnFoldFs('a project on a folder whose names fold', (mount) => {
  it('is one project whichever spelling opens it', async () => {
    const base = join(mount().dir, 'identity');
    const data = join(mount().dir, 'data-identity');
    writeTree(base, { 'rd/README.md': 'read me\n', 'rd/café.txt': 'crème\n' });
    const cli = (...args: string[]) => [...args, '--data-dir', data];
    const first = await cliJson<Opened>(cli('open', join(base, 'rd')));
    const second = await cliJson<Opened>(cli('open', join(base, 'RD')));
    expect(second.projectId).toBe(first.projectId);
    expect(second.root).toBe(join(base, 'rd'));
    const projects = await cliJson<{ projectId: string }[]>(cli('projects'));
    expect(projects.map((p) => p.projectId)).toEqual([first.projectId]);
  });

  it('takes along the history a folder has under another spelling when its own spelling has none', async () => {
    const base = join(mount().dir, 'twin');
    const data = join(mount().dir, 'data-twin');
    writeTree(base, { 'rd/notes.txt': 'notes\n' });
    const cli = (...args: string[]) => [...args, '--data-dir', data];
    const first = await cliJson<Opened>(cli('open', join(base, 'rd')));
    // The folder is now spelled otherwise on disk: the history was registered under the old spelling.
    renameSync(join(base, 'rd'), join(base, 'RD'));
    const reopened = await runCli(cli('open', join(base, 'rd'), '--json'));
    expect(reopened.stderr).toContain(`The history recorded for ${join(base, 'rd')} is the history of ${join(base, 'RD')}`);
    const again = JSON.parse(reopened.stdout.toString()) as Opened;
    expect(again.root).toBe(join(base, 'RD'));
    expect(again.projectId).not.toBe(first.projectId);
    const projects = await cliJson<{ projectId: string; root: string }[]>(cli('projects'));
    expect(projects.map((p) => [p.projectId, p.root])).toEqual([[again.projectId, join(base, 'RD')]]);
    const snapshots = await cliJson<{ kind: string }[]>(cli('log', join(base, 'RD')));
    expect(snapshots[0]?.kind).toBe('baseline');
    expect(snapshots).toHaveLength(1);
  });

  it('refuses restore --into the project spelled in another case', async () => {
    const base = join(mount().dir, 'into');
    const data = join(mount().dir, 'data-into');
    writeTree(base, { 'rd/README.md': 'read me\n' });
    const cli = (...args: string[]) => [...args, '--data-dir', data];
    await cliJson(cli('open', join(base, 'rd')));

    const refused = await runCli(cli('restore', join(base, 'rd'), '--snapshot', '1', '--into', join(base, 'RD', 'inside')));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is inside the project folder');
    expect(existsSync(join(base, 'rd', 'inside'))).toBe(false);
  });

  it('finds a file typed in another case or normalization', async () => {
    const base = join(mount().dir, 'typed');
    const data = join(mount().dir, 'data-typed');
    writeTree(base, { 'rd/README.md': 'read me\n', 'rd/café.txt': 'crème\n' });
    const cli = (...args: string[]) => [...args, '--data-dir', data];
    await cliJson(cli('open', join(base, 'rd')));

    // A path typed in another case, or the other normalization, is the recorded file.
    const log = await cliJson<unknown[]>(cli('log', join(base, 'RD'), 'README.MD'));
    expect(log).toHaveLength(1);
    const decomposed = await cliJson<unknown[]>(cli('log', join(base, 'rd'), 'CAFE\u0301.TXT'));
    expect(decomposed).toHaveLength(1);
    // A file deleted since has no spelling on disk: the history's deleted paths are asked.
    rmSync(join(base, 'rd', 'café.txt'));
    await cliJson(cli('open', join(base, 'rd')));
    const gone = await cliJson<{ versionId: number }[]>(cli('log', join(base, 'rd'), 'CAFÉ.TXT'));
    expect(gone).toHaveLength(2);
    const shown = await runCli(cli('show', join(base, 'rd'), 'CAFÉ.TXT', '--version', String(gone[0]!.versionId)));
    expect(shown.stdout.toString()).toBe('crème\n');
  });

  it('never records its data folder spelled in another case', async () => {
    const root = join(mount().dir, 're');
    writeTree(root, { 'notes.txt': 'notes\n' });
    mkdirSync(join(root, '.hsdata'));
    const cli = (...args: string[]) => [...args, '--data-dir', join(mount().dir, 'RE', '.HSDATA')];
    await cliJson(cli('open', root));
    await cliJson(cli('open', root));
    const files = await cliJson<FileRow[]>(cli('files', root));
    expect(files.map((f) => f.path)).toEqual(['notes.txt']);
  });
});
