import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RestorePreview, SnapshotInfo } from '../../shared/contract/values.js';
import { cliJson, runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { writeTree } from '../helpers/writeTree.js';

// A restore undone at any later time (`restore FOLDER --undo SNAPSHOT`, the command every restore
// prints, and what the Timeline's "Undo this restore" runs): only the paths the restore changed go
// back, as the snapshot just before it held them; files edited since that it did not touch stay.

const read = (root: string, path: string) => readFileSync(join(root, path), 'utf8');

describe('undo of a restore from history', () => {
  it('puts back only the paths the restore changed, after later edits of other files, and the restore prints the command', async () => {
    const root = tempDir();
    const data = ['--data-dir', tempDir('hindsight-data-')];
    writeTree(root, { 'a.txt': 'a1\n', 'b.txt': 'b1\n', 'c.txt': 'c1\n', 'gone.txt': 'gone1\n' });
    await cliJson(['open', root, ...data]);
    const [baseline] = await cliJson<SnapshotInfo[]>(['log', root, ...data]);
    writeFileSync(join(root, 'a.txt'), 'a2\n');
    writeFileSync(join(root, 'b.txt'), 'b2\n');
    writeFileSync(join(root, 'added.txt'), 'added\n');
    rmSync(join(root, 'gone.txt'));
    await cliJson(['open', root, ...data]);

    const restored = await runCli(['restore', root, '--snapshot', String(baseline!.snapshotId), '--delete-added', ...data]);
    expect(restored.code).toBe(0);
    const restore = (await cliJson<SnapshotInfo[]>(['log', root, ...data])).at(-1)!;
    expect(restore.kind).toBe('restore');
    expect(restored.stdout.toString()).toContain(`Undo with: hindsight restore ${root} --undo ${restore.snapshotId}\n`);
    expect(read(root, 'a.txt')).toBe('a1\n');
    expect(existsSync(join(root, 'added.txt'))).toBe(false);

    // Later: another file edited, and recorded; then the undo.
    writeFileSync(join(root, 'c.txt'), 'c2\n');
    await cliJson(['open', root, ...data]);
    const preview = await cliJson<RestorePreview>(['restore', root, '--undo', String(restore.snapshotId), '--dry-run', ...data]);
    expect(preview.write.sort()).toEqual(['a.txt', 'b.txt']);
    expect(preview.recreate).toEqual(['added.txt']);
    expect(preview.delete).toEqual(['gone.txt']);

    const undone = await runCli(['restore', root, '--undo', String(restore.snapshotId), ...data]);
    expect(undone.stderr).toBe('');
    expect(undone.stdout.toString()).toMatch(new RegExp(`^Undid restore ${restore.snapshotId}: 2 written, 1 recreated, 1 deleted`));
    expect(read(root, 'a.txt')).toBe('a2\n');
    expect(read(root, 'b.txt')).toBe('b2\n');
    expect(read(root, 'added.txt')).toBe('added\n');
    expect(existsSync(join(root, 'gone.txt'))).toBe(false);
    expect(read(root, 'c.txt')).toBe('c2\n');
    const last = (await cliJson<SnapshotInfo[]>(['log', root, ...data])).at(-1)!;
    expect(last.label).toBe('Undid the restore of the project');

    const notRestore = await runCli(['restore', root, '--undo', String(baseline!.snapshotId), ...data]);
    expect(notRestore.code).toBe(1);
    expect(notRestore.stderr).toContain('is not a restore');
  });
});
