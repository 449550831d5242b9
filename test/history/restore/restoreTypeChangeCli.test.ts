import { describe, expect, it } from 'vitest';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RestorePreview, RestoreSnapshotResult } from '../../../shared/contract/values.js';
import { cliJson, runCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { diskState } from './typeChangeCases.js';

// Issue 39's reproductions through the built `hindsight`: `restore --snapshot N --delete-added`
// across a file `node` that later became a folder `node/` stopped halfway ("a folder is in its
// place") after deleting the folder's files, and recorded a restore whose listing did not match the
// disk; the other direction refused after a dry run promised it would work.

async function project(snapshot: Record<string, string>, now: (root: string) => void) {
  const root = tempDir();
  const data = tempDir('hindsight-data-');
  const cli = (...args: string[]) => [...args, '--data-dir', data];
  writeTree(root, snapshot);
  await cliJson(cli('open', root));
  const want = diskState(root);
  now(root);
  return { root, cli, want, before: diskState(root) };
}

/** The history's files now, as `files` lists them, against the disk's. */
async function historyMatchesDisk(root: string, cli: (...args: string[]) => string[]): Promise<void> {
  const files = await cliJson<{ path: string }[]>(cli('files', root));
  const onDisk = Object.entries(diskState(root)).filter(([, s]) => s.type !== 'folder');
  expect(files.map((f) => f.path).sort()).toEqual(onDisk.map(([p]) => p).sort());
}

describe('restore --snapshot across a file that became a folder (issue 39)', () => {
  it('file node -> folder node/ with --delete-added: restores the file whole, the dry run listing the same steps', async () => {
    const { root, cli, want } = await project({ node: 'the file\n', 'other.txt': 'o\n' }, (root) => {
      rmSync(join(root, 'node'));
      mkdirSync(join(root, 'node'));
      writeFileSync(join(root, 'node/one.txt'), '1\n');
      writeFileSync(join(root, 'node/two.txt'), '2\n');
    });
    const dry = await cliJson<RestorePreview>(cli('restore', root, '--snapshot', '1', '--delete-added', '--dry-run'));
    expect(dry.steps).toEqual([
      { op: 'remove', path: 'node/one.txt' },
      { op: 'remove', path: 'node/two.txt' },
      { op: 'removeFolder', path: 'node' },
      { op: 'write', path: 'node' },
    ]);
    const run = await runCli(cli('restore', root, '--snapshot', '1', '--delete-added', '--json'));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout.toString()) as RestoreSnapshotResult;
    expect(result.steps).toEqual(dry.steps);
    expect(result).toMatchObject({ recreated: 1, deleted: 2 });
    expect(diskState(root)).toEqual(want);
    await historyMatchesDisk(root, cli);
    expect(await cliJson(cli('verify', root))).toMatchObject({ ok: true });
  });

  it('folder node/ -> file node: the dry run and the restore refuse alike without --delete-added, and both succeed with it', async () => {
    const { root, cli, want, before } = await project({ 'node/one.txt': '1\n', 'node/two.txt': '2\n' }, (root) => {
      rmSync(join(root, 'node'), { recursive: true });
      writeFileSync(join(root, 'node'), 'now a file\n');
    });
    const dry = await runCli(cli('restore', root, '--snapshot', '1', '--dry-run'));
    const run = await runCli(cli('restore', root, '--snapshot', '1'));
    expect([dry.code, run.code]).toEqual([1, 1]);
    expect(run.stderr).toBe(dry.stderr);
    expect(run.stderr).toMatch(
      /Cannot restore node\/one\.txt: node was added since the snapshot and is kept \(--delete-added deletes it, recorded first\)\. Nothing was changed\./,
    );
    expect(diskState(root)).toEqual(before);

    const preview = await cliJson<RestorePreview>(cli('restore', root, '--snapshot', '1', '--delete-added', '--dry-run'));
    expect(preview.steps).toEqual([
      { op: 'remove', path: 'node' },
      { op: 'makeFolder', path: 'node' },
      { op: 'write', path: 'node/one.txt' },
      { op: 'write', path: 'node/two.txt' },
    ]);
    const restored = await cliJson<RestoreSnapshotResult>(cli('restore', root, '--snapshot', '1', '--delete-added'));
    expect(restored.steps).toEqual(preview.steps);
    expect(diskState(root)).toEqual(want);
    await historyMatchesDisk(root, cli);

    // Its undo (the snapshot before it) is a change of type too: refused without --delete-added,
    // done with it, and the text output ends with the command that undoes it in turn.
    const plain = await runCli(cli('restore', root, '--snapshot', String(restored.undoSnapshotId)));
    expect(plain.code).toBe(1);
    const undone = await runCli(cli('restore', root, '--snapshot', String(restored.undoSnapshotId), '--delete-added'));
    expect(undone.code).toBe(0);
    expect(undone.stdout.toString()).toMatch(/\nUndo with: hindsight restore \S+ --undo \d+\n$/);
    expect(diskState(root)).toEqual(before);
  });
});
