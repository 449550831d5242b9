import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scopeOf } from '../../../electron/history/db/commitSnapshot.js';
import { git } from '../git/gitFixture.js';
import { notRacy, repoWithBaseline } from '../versions/versionsHelpers.js';

// What the timeline says about a snapshot and what a folder restore leaves behind: where a
// snapshot's files are, what a checkpoint holds, the branch a snapshot was taken on against the
// one checked out now, and no empty folder left by a folder restore or its undo.

async function opened(files: Record<string, string>) {
  const { root, engine, projectId, store } = await repoWithBaseline(files);
  const rescan = async () => {
    notRacy(store);
    await engine.rescan(projectId);
  };
  return { root, engine, projectId, rescan };
}

describe('where a snapshot’s files are', () => {
  it('is the one file, or the deepest folder holding them all', () => {
    expect(scopeOf([])).toBeNull();
    expect(scopeOf([{ path: 'src/app.ts' }])).toBe('src/app.ts');
    expect(scopeOf([{ path: 'src/lib/b.ts' }, { path: 'src/app.ts' }, { path: 'src/lib/a.ts' }])).toBe('src');
    expect(scopeOf([{ path: 'src/app' }, { path: 'src/apple' }])).toBe('src');
    expect(scopeOf([{ path: 'src/lib/a.ts' }, { path: 'src/lib/b.ts' }])).toBe('src/lib');
    expect(scopeOf([{ path: 'a.txt' }, { path: 'src/b.txt' }])).toBe('');
  });

  it('is recorded with each snapshot', async () => {
    const { root, engine, projectId, rescan } = await opened({ 'a.txt': 'a\n', 'src/x.txt': 'x\n', 'src/y.txt': 'y\n', 'src/z.txt': 'z\n' });
    for (const name of ['x', 'y', 'z']) writeFileSync(join(root, `src/${name}.txt`), 'changed\n');
    await rescan();
    expect(engine.log(projectId).at(-1)).toMatchObject({ files: 3, scope: 'src' });
    writeFileSync(join(root, 'a.txt'), 'changed\n');
    await rescan();
    expect(engine.log(projectId).at(-1)).toMatchObject({ files: 1, scope: 'a.txt' });
    expect(engine.log(projectId)[0]).toMatchObject({ kind: 'baseline', scope: '' });
  });
});

describe('what a checkpoint holds', () => {
  it('counts the files present at it and the ones changed since the checkpoint before', async () => {
    const { root, engine, projectId } = await opened({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
    const first = await engine.checkpoint(projectId, 'first');
    expect(engine.snapshotSummary(projectId, first.snapshotId)).toEqual({
      snapshotId: first.snapshotId,
      files: 3,
      changedSince: 0,
      since: { snapshotId: 1, kind: 'baseline' },
    });
    writeFileSync(join(root, 'a.txt'), 'a2\n');
    rmSync(join(root, 'b.txt'));
    writeFileSync(join(root, 'd.txt'), 'd\n');
    const second = await engine.checkpoint(projectId, 'second');
    expect(engine.snapshotSummary(projectId, second.snapshotId)).toEqual({
      snapshotId: second.snapshotId,
      files: 3,
      changedSince: 3,
      since: { snapshotId: first.snapshotId, kind: 'checkpoint' },
    });
    expect(engine.snapshotSummary(projectId, 1)).toMatchObject({ files: 3, since: null });
    expect(() => engine.snapshotSummary(projectId, 999)).toThrow(expect.objectContaining({ code: 'SNAPSHOT_NOT_FOUND' }));
  });
});

describe('a folder restore', () => {
  it('says which branch the snapshot was taken on and which is checked out now', async () => {
    const { root, engine, projectId, rescan } = await opened({ 'src/a.txt': 'a\n' });
    git(root, 'checkout', '-q', '-b', 'topic');
    writeFileSync(join(root, 'src/a.txt'), 'on topic\n');
    await rescan();
    const onTopic = engine.log(projectId).at(-1)!;
    expect(await engine.previewRestore(projectId, onTopic.snapshotId, { prefix: 'src' })).toMatchObject({ snapshotBranch: 'topic', branchNow: 'topic' });
    git(root, 'stash', '-q');
    git(root, 'checkout', '-q', 'main');
    expect(await engine.previewRestore(projectId, onTopic.snapshotId, { prefix: 'src' })).toMatchObject({ snapshotBranch: 'topic', branchNow: 'main' });
  });

  it('and its undo leave no empty folder they created behind', async () => {
    const { root, engine, projectId, rescan } = await opened({ 'src/keep.txt': 'k\n' });
    mkdirSync(join(root, 'src/deep/er'), { recursive: true });
    writeFileSync(join(root, 'src/deep/er/new.txt'), 'new\n');
    writeFileSync(join(root, 'src/deep/also.txt'), 'also\n');
    await rescan();
    const withDeep = engine.log(projectId).at(-1)!;
    rmSync(join(root, 'src/deep'), { recursive: true });
    await rescan();

    // The restore recreates src/deep/er; its undo deletes the files and the folders it made.
    const restored = await engine.restoreSnapshot(projectId, withDeep.snapshotId, { prefix: 'src' });
    expect(readdirSync(join(root, 'src/deep/er'))).toEqual(['new.txt']);
    await engine.restoreSnapshot(projectId, restored.undoSnapshotId!, { prefix: 'src', deleteAdded: true });
    expect(existsSync(join(root, 'src/deep'))).toBe(false);
    expect(readdirSync(join(root, 'src'))).toEqual(['keep.txt']);

    // Restoring the baseline over files added since (deleting them) removes their emptied folders too.
    await engine.restoreSnapshot(projectId, withDeep.snapshotId, { prefix: 'src' });
    writeFileSync(join(root, 'src/deep/untracked-later.txt'), 'later\n');
    await engine.restoreSnapshot(projectId, 1, { prefix: 'src', deleteAdded: true });
    expect(existsSync(join(root, 'src/deep/er'))).toBe(false);
    expect(existsSync(join(root, 'src/deep'))).toBe(false);
    expect(readdirSync(join(root, 'src'))).toEqual(['keep.txt']);
  });

  it('of one file to its deletion removes the folder the file restore had made', async () => {
    const { root, engine, projectId, rescan } = await opened({ 'a.txt': 'a\n' });
    mkdirSync(join(root, 'notes/2026'), { recursive: true });
    writeFileSync(join(root, 'notes/2026/jan.md'), 'jan\n');
    await rescan();
    rmSync(join(root, 'notes'), { recursive: true });
    await rescan();
    const [added, deletion] = engine.versions(projectId, 'notes/2026/jan.md');
    const restore = await engine.restoreFile(projectId, 'notes/2026/jan.md', added!.versionId);
    expect(restore.undoVersionId).toBe(deletion!.versionId);
    await engine.restoreFile(projectId, 'notes/2026/jan.md', restore.undoVersionId!);
    expect(existsSync(join(root, 'notes'))).toBe(false);
  });
});
