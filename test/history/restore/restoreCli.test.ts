import { describe, expect, it } from 'vitest';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliJson, runCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

// The CLI of issue 4, end to end through the built `hindsight`.

describe('hindsight restore --snapshot, deleted, checkpoint', () => {
  it('previews, restores, lists deleted files and names checkpoints', async () => {
    const root = tempDir();
    const data = tempDir('hindsight-data-');
    const cli = (...args: string[]) => [...args, '--data-dir', data];
    writeTree(root, { 'a/one.txt': 'one', 'a/two.txt': 'two', 'b.txt': 'b' });
    const first = await cliJson<{ firstCopy: boolean }>(cli('open', root));
    expect(first.firstCopy).toBe(true);

    rmSync(join(root, 'a/two.txt'));
    writeFileSync(join(root, 'a/one.txt'), 'ONE');
    writeFileSync(join(root, 'a/new.txt'), 'new');
    const reopened = await cliJson<{ firstCopy: boolean; files: number }>(cli('open', root));
    expect(reopened).toMatchObject({ firstCopy: false, files: 3 });

    const deleted = await cliJson<{ path: string; lastVersionId: number }[]>(cli('deleted', root));
    expect(deleted.map((d) => d.path)).toEqual(['a/two.txt']);

    const checkpoint = await cliJson<{ snapshotId: number; label: string }>(cli('checkpoint', root, 'before restore'));
    expect(checkpoint.label).toBe('before restore');

    const preview = await cliJson<Record<string, unknown>>(cli('restore', root, '--snapshot', '1', '--path', 'a', '--dry-run'));
    expect(preview).toEqual({
      snapshotId: 1,
      pathPrefix: 'a',
      prefix: 'a',
      deleteAdded: false,
      write: ['a/one.txt'],
      recreate: ['a/two.txt'],
      unchanged: 0,
      added: ['a/new.txt'],
      delete: [],
      snapshotBranch: null,
      branchNow: null,
      specialModesDropped: 0,
      steps: [
        { op: 'write', path: 'a/one.txt' },
        { op: 'write', path: 'a/two.txt' },
      ],
    });
    expect(readFileSync(join(root, 'a/one.txt'), 'utf8')).toBe('ONE'); // a dry run writes nothing

    const restored = await cliJson<{ snapshotId: number; undoSnapshotId: number; written: number; recreated: number; kept: number }>(
      cli('restore', root, '--snapshot', '1', '--path', 'a'),
    );
    expect(restored).toMatchObject({ written: 1, recreated: 1, kept: 1 });
    expect(readFileSync(join(root, 'a/two.txt'), 'utf8')).toBe('two');
    expect(readFileSync(join(root, 'a/new.txt'), 'utf8')).toBe('new');

    // Undo with the snapshot before the restore.
    await cliJson(cli('restore', root, '--snapshot', String(restored.undoSnapshotId)));
    expect(readFileSync(join(root, 'a/one.txt'), 'utf8')).toBe('ONE');

    // The file form still works.
    const file = await cliJson<{ path: string }>(cli('restore', root, 'a/two.txt', '--version', String(deleted[0]!.lastVersionId)));
    expect(file.path).toBe('a/two.txt');

    const bad = await runCli(cli('restore', root, '--snapshot', '999'));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/no snapshot 999/);
    const usage = await runCli(cli('restore', root, '--snapshot', 'x'));
    expect(usage.code).toBe(2);
  });
});
