import { describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MaterializeResult } from '../../shared/contract/values.js';
import { cliJson, runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { readTree, writeTree } from '../helpers/writeTree.js';

// `hindsight restore FOLDER --snapshot ID --into NEWFOLDER` through the built CLI: the snapshot
// written exactly, the background closer forced either way, a folder that is not empty refused.

describe('hindsight restore --into', () => {
  it('writes a snapshot into a new folder, either closer, and refuses a folder that is not empty', async () => {
    const root = tempDir();
    const data = tempDir('hindsight-data-');
    const cli = (...args: string[]) => [...args, '--data-dir', data];
    writeTree(root, { 'a/one.txt': 'one', 'run.sh': { data: 'echo', mode: 0o751 }, link: { link: 'a/one.txt' } });
    await cliJson(cli('open', root));
    const before = readTree(root);
    writeFileSync(join(root, 'a/one.txt'), 'changed');
    await cliJson(cli('open', root));

    const out = tempDir();
    for (const close of ['on', 'off'] as const) {
      const into = join(out, close);
      const result = await cliJson<MaterializeResult>(cli('restore', root, '--snapshot', '1', '--into', into, '--background-close', close));
      expect(result).toMatchObject({ snapshotId: 1, into, files: 2, links: 1, folders: 1, bytes: 7, backgroundClose: close === 'on' });
      expect(readTree(into)).toEqual(before);
    }

    mkdirSync(join(out, 'busy'));
    writeFileSync(join(out, 'busy/mine.txt'), 'mine');
    const refused = await runCli(cli('restore', root, '--snapshot', '1', '--into', join(out, 'busy')));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is not empty');
    expect(readdirSync(join(out, 'busy'))).toEqual(['mine.txt']);

    const usage = await runCli(cli('restore', root, '--snapshot', '1', '--into', join(out, 'x'), '--path', 'a'));
    expect(usage.code).toBe(2);
    const text = await runCli(cli('restore', root, '--snapshot', '1', '--into', join(out, 'text')));
    expect(text.stdout.toString()).toBe(`Wrote snapshot 1 into ${join(out, 'text')}: 2 files, 1 link (7 bytes).\n`);
  });

  it('refuses a folder inside the project, named directly, through a link or as the project itself, writing nothing', async () => {
    const root = tempDir();
    const data = tempDir('hindsight-data-');
    const cli = (...args: string[]) => [...args, '--data-dir', data];
    writeTree(root, { 'a/one.txt': 'one', 'b.txt': 'bee' });
    await cliJson(cli('open', root));
    const before = readTree(root);
    const out = tempDir();
    symlinkSync(join(root, 'a'), join(out, 'into-a'));
    for (const into of [join(root, 'restored'), join(root, 'a', 'deeper', 'new'), join(out, 'into-a', 'new'), root]) {
      const refused = await runCli(cli('restore', root, '--snapshot', '1', '--into', into));
      expect(refused.code, into).toBe(1);
      expect(refused.stderr, into).toMatch(/^[^\n]*is inside the project folder [^\n]*restore --into never touches[^\n]*\n$/);
    }
    expect(readTree(root)).toEqual(before);
  });
});
