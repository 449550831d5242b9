import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import Database from 'better-sqlite3';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { historyDbPath } from '../../../electron/history/store/storeLayout.js';
import { DROP_AFTER_SCHEMA_2 } from '../db/olderSchema.js';
import { originText } from '../../../shared/originText.js';
import { git } from '../git/gitFixture.js';
import { notRacy, repoWithBaseline } from './versionsHelpers.js';

// Every version says where it came from (a first copy, an edit, a restore of which version, the
// undo of a restore, git rewriting the file), and the file on disk says which version it is.
// Real git, real files, the real engine.

async function openedRepo(files: Record<string, string>) {
  const { root, engine, projectId, store } = await repoWithBaseline(files);
  const edit = async (path: string, text: string) => {
    writeFileSync(join(root, path), text);
    notRacy(store);
    await engine.rescan(projectId);
  };
  const labels = (path: string) => engine.versions(projectId, path).map((v) => originText(v.origin));
  return { root, engine, store, projectId, edit, labels };
}

describe('where each version came from', () => {
  it('first copy, edit, restore of a version, and the undo of that restore', async () => {
    const { engine, projectId, edit, labels, root } = await openedRepo({ 'a.txt': 'one\n' });
    await edit('a.txt', 'two\n');
    const [first, second] = engine.versions(projectId, 'a.txt');
    expect(labels('a.txt')).toEqual(['First copy', 'Edited']);

    const restore = await engine.restoreFile(projectId, 'a.txt', first!.versionId);
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('one\n');
    const restored = engine.versions(projectId, 'a.txt').at(-1)!;
    expect(restored.origin).toMatchObject({ kind: 'restore', fromVersionId: first!.versionId, fromGit: null });
    expect(labels('a.txt').at(-1)).toBe(`Restored from version ${first!.versionId}`);

    await engine.restoreFile(projectId, 'a.txt', restore.undoVersionId!);
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('two\n');
    expect(engine.versions(projectId, 'a.txt').at(-1)!.origin).toMatchObject({ kind: 'undo', fromVersionId: second!.versionId });
    expect(engine.log(projectId).at(-1)).toMatchObject({ kind: 'restore', label: 'Undid the restore of a.txt', origin: { kind: 'undo' } });
  });

  it('restoring the version before a restore after an edit since is a restore, not an undo', async () => {
    const { engine, projectId, edit, root } = await openedRepo({ 'a.txt': 'one\n' });
    await edit('a.txt', 'two\n');
    const [first] = engine.versions(projectId, 'a.txt');
    const restore = await engine.restoreFile(projectId, 'a.txt', first!.versionId);
    writeFileSync(join(root, 'a.txt'), 'edited after the restore\n');
    await engine.restoreFile(projectId, 'a.txt', restore.undoVersionId!);
    const versions = engine.versions(projectId, 'a.txt');
    expect(versions.at(-2)!.origin.kind).toBe('edit'); // the capture of the later edit
    expect(versions.at(-1)!.origin.kind).toBe('restore');
  });

  it('a snapshot restore names the snapshot and, per file, the version it brought back; its undo is an undo', async () => {
    const { engine, projectId, edit } = await openedRepo({ 'a.txt': 'one\n', 'src/b.txt': 'b1\n' });
    const baseline = engine.log(projectId)[0]!;
    const [aFirst] = engine.versions(projectId, 'a.txt');
    await edit('a.txt', 'two\n');
    const result = await engine.restoreSnapshot(projectId, baseline.snapshotId);
    const restoreSnapshot = engine.log(projectId).at(-1)!;
    expect(restoreSnapshot.origin).toMatchObject({ kind: 'restore', fromSnapshotId: baseline.snapshotId });
    expect(engine.versions(projectId, 'a.txt').at(-1)!.origin).toMatchObject({
      kind: 'restore',
      fromVersionId: aFirst!.versionId,
      fromSnapshotId: baseline.snapshotId,
    });

    await engine.restoreSnapshot(projectId, result.undoSnapshotId!);
    expect(engine.log(projectId).at(-1)!.origin).toMatchObject({ kind: 'undo', fromSnapshotId: result.undoSnapshotId });
    expect(originText(engine.versions(projectId, 'a.txt').at(-1)!.origin)).toBe('Undo of a restore');
  });

  it('a git checkout: the checkpoint says before, the rewritten files say after, with the operation', async () => {
    const { root, engine, store, projectId, labels } = await openedRepo({ 'a.txt': 'one\n' });
    git(root, 'checkout', '-qb', 'topic');
    writeFileSync(join(root, 'a.txt'), 'topic\n');
    git(root, 'commit', '-qam', 'topic');
    notRacy(store);
    await engine.rescan(projectId); // recorded on topic: the commit moved HEAD but wrote nothing
    git(root, 'checkout', '-q', 'main');
    notRacy(store);
    await engine.rescan(projectId);
    const log = engine.log(projectId);
    expect(log.at(-2)).toMatchObject({ kind: 'checkpoint', origin: { kind: 'git', gitOperation: 'checkout', gitWhen: 'before' } });
    expect(log.at(-1)).toMatchObject({
      kind: 'change',
      label: `Checked out \`${git(root, 'rev-parse', '--short=7', 'HEAD')}\` first, on main`,
      origin: { kind: 'git', gitOperation: 'checkout', gitWhen: 'after' },
    });
    expect(labels('a.txt')).toEqual(['First copy', 'Edited', 'After git checkout']);
  });

  it('a git stash and its pop are told apart from a reset', async () => {
    const { root, engine, store, projectId, edit } = await openedRepo({ 'a.txt': 'one\n' });
    await edit('a.txt', 'work in progress\n');
    git(root, 'stash', '-q');
    notRacy(store);
    await engine.rescan(projectId);
    expect(engine.log(projectId).at(-1)!.origin).toMatchObject({ kind: 'git', gitOperation: 'stash', gitWhen: 'after' });
    git(root, 'stash', 'pop', '-q');
    notRacy(store);
    await engine.rescan(projectId);
    const log = engine.log(projectId);
    expect(log.at(-2)).toMatchObject({ kind: 'checkpoint', origin: { gitOperation: 'stash pop', gitWhen: 'before' } });
    expect(log.at(-1)).toMatchObject({ label: 'Stash pop', origin: { kind: 'git', gitOperation: 'stash pop', gitWhen: 'after' } });
    git(root, 'reset', '-q', '--hard');
    notRacy(store);
    await engine.rescan(projectId);
    expect(engine.log(projectId).at(-1)!.origin).toMatchObject({ gitOperation: 'reset', gitWhen: 'after' });
  });

  it("restores from git's HEAD and INDEX, recording where the contents came from", async () => {
    const { root, engine, projectId, edit } = await openedRepo({ 'a.txt': 'committed\n', 'run.sh': 'echo hi\n' });
    writeFileSync(join(root, 'a.txt'), 'staged\n');
    git(root, 'add', 'a.txt');
    await edit('a.txt', 'working copy\n');

    const head = await engine.restoreFromGit(projectId, 'a.txt', 'HEAD');
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('committed\n');
    const last = engine.versions(projectId, 'a.txt').at(-1)!;
    expect(head).toMatchObject({ fromGit: 'HEAD', versionId: last.versionId });
    expect(last.origin).toMatchObject({ kind: 'restore', fromGit: 'HEAD', fromVersionId: null });
    expect(engine.log(projectId).at(-1)!.label).toMatch(/^Restored a\.txt to git HEAD \([0-9a-f]{7}\)$/);

    await engine.restoreFromGit(projectId, 'a.txt', 'INDEX');
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('staged\n');
    // The undo of a restore from git brings back the working copy, recorded before it.
    await engine.restoreFile(projectId, 'a.txt', head.undoVersionId!);
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('working copy\n');

    chmodSync(join(root, 'run.sh'), 0o700);
    await engine.restoreFromGit(projectId, 'run.sh', 'HEAD');
    expect(engine.versions(projectId, 'run.sh').at(-1)!.mode).toBe(0o644);
    await expect(engine.restoreFromGit(projectId, 'not-tracked.txt', 'HEAD')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('compares a version with git HEAD and INDEX', async () => {
    const { root, engine, projectId } = await openedRepo({ 'a.txt': 'committed\n' });
    writeFileSync(join(root, 'a.txt'), 'staged\n');
    git(root, 'add', 'a.txt');
    const [first] = engine.versions(projectId, 'a.txt');
    const withHead = await engine.diffInputs(projectId, 'a.txt', { kind: 'git', source: 'HEAD' }, { kind: 'version', versionId: first!.versionId }, 1024);
    expect(withHead.before).toMatchObject({ data: 'committed\n', versionId: null });
    const withIndex = await engine.diffInputs(projectId, 'a.txt', { kind: 'git', source: 'INDEX' }, { kind: 'disk' }, 1024);
    expect(withIndex.before!.data).toBe('staged\n');
    const untracked = await engine.diffInputs(projectId, 'b.txt', { kind: 'git', source: 'HEAD' }, { kind: 'disk' }, 1024);
    expect(untracked).toEqual({ path: 'b.txt', before: null, after: null });
  });
});

describe('which version is on disk', () => {
  it('marks the newest identical version current, lists every identical one, and follows the disk', async () => {
    const { root, engine, store, projectId, edit } = await openedRepo({ 'a.txt': 'one\n' });
    await edit('a.txt', 'two\n');
    const [first, second] = engine.versions(projectId, 'a.txt');
    expect(await engine.diskState(projectId, 'a.txt')).toMatchObject({
      exists: true,
      currentVersionId: second!.versionId,
      sameVersionIds: [second!.versionId],
      versionCount: 2,
    });

    await engine.restoreFile(projectId, 'a.txt', first!.versionId);
    const third = engine.versions(projectId, 'a.txt').at(-1)!;
    expect(await engine.diskState(projectId, 'a.txt')).toMatchObject({
      currentVersionId: third.versionId,
      sameVersionIds: [first!.versionId, third.versionId],
    });

    // Not recorded yet (no watcher): the disk is read, not the history's latest.
    writeFileSync(join(root, 'a.txt'), 'two\n');
    notRacy(store);
    expect(await engine.diskState(projectId, 'a.txt')).toMatchObject({ currentVersionId: second!.versionId });
    writeFileSync(join(root, 'a.txt'), 'never recorded\n');
    expect(await engine.diskState(projectId, 'a.txt')).toMatchObject({ currentVersionId: null, sameVersionIds: [] });
    // Same bytes, other mode: not identical (restoring would change the mode).
    writeFileSync(join(root, 'a.txt'), 'two\n');
    chmodSync(join(root, 'a.txt'), 0o600);
    expect(await engine.diskState(projectId, 'a.txt')).toMatchObject({ currentVersionId: null });
  });
});

describe('a history written before origins were recorded (schema 2)', () => {
  it('is migrated, and its versions are told by their kind', async () => {
    const { root, engine, store, projectId, edit } = await openedRepo({ 'a.txt': 'one\n' });
    await edit('a.txt', 'two\n');
    await engine.restoreFile(projectId, 'a.txt', engine.versions(projectId, 'a.txt')[0]!.versionId);
    const dbFile = historyDbPath(store.storeDir);
    const dataDir = engine.dataDir;
    await engine.unwatchAll();
    engine.close();
    const older = new Database(dbFile);
    older.exec(`${DROP_AFTER_SCHEMA_2} PRAGMA user_version = 2;`);
    older.close();

    const again = new HistoryEngine(dataDir);
    onTestFinished(() => again.close());
    await again.open(root);
    expect(again.versions(projectId, 'a.txt').map((v) => originText(v.origin))).toEqual(['First copy', 'Edited', 'Restored']);
  });
});
