import { describe, expect, it, onTestFinished } from 'vitest';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setSetting } from '../../../electron/history/config/projectEdits.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { statPath } from '../../../electron/history/walk/statPath.js';
import { insertCheckpoint } from '../../../electron/history/versions/checkpoint.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { seededBytes, sha256 } from '../../helpers/writeTree.js';
import { changedPaths, notRacy, projectWithBaseline, versionsOf } from './versionsHelpers.js';

describe('rescan', () => {
  it('records edits, additions, deletions, renames and mode-only changes as one change snapshot, hashing only what differs', async () => {
    const { engine, root, projectId, store } = await projectWithBaseline({
      'keep.txt': 'unchanged',
      'edit.txt': 'before',
      'gone.txt': 'deleted soon',
      'old/name.txt': 'renamed soon',
      'run.sh': { data: '#!/bin/sh\n', mode: 0o644 },
    });
    writeFileSync(join(root, 'edit.txt'), 'after, longer');
    writeFileSync(join(root, 'new.txt'), 'added');
    rmSync(join(root, 'gone.txt'));
    mkdirSync(join(root, 'new'));
    renameSync(join(root, 'old/name.txt'), join(root, 'new/name.txt'));
    chmodSync(join(root, 'run.sh'), 0o755);

    const result = await engine.rescan(projectId);
    expect(result.changed).toBe(6);
    expect(changedPaths(store, result.snapshotId)).toEqual(['edit.txt', 'gone.txt', 'new.txt', 'new/name.txt', 'old/name.txt', 'run.sh']);
    expect(result.hashed).toBe(6); // keep.txt was never read
    expect(store.index.snapshotReads.snapshot(result.snapshotId!)!.kind).toBe('change');
    const versions = versionsOf(store, result.snapshotId);
    expect(versions['edit.txt']).toBe(sha256('after, longer'));
    expect(versions['gone.txt']).toBeNull();
    // A rename is a deletion plus an addition of the same bytes.
    expect(versions['old/name.txt']).toBeNull();
    expect(versions['new/name.txt']).toBe(sha256('renamed soon'));
    // A mode-only change is a version with the same blob and the new mode.
    const run = store.index.versions.versionsOf('run.sh');
    expect(run.map((v) => v.mode)).toEqual([0o644, 0o755]);
    expect(run[0]!.hash).toBe(run[1]!.hash);
    // "before" is the previous version: the edit's history reads baseline then change.
    expect(store.index.versions.versionsOf('edit.txt').map((v) => v.kind)).toEqual(['baseline', 'change']);
  });

  it('does nothing and hashes nothing when nothing changed, and checks no path twice', async () => {
    const spec: Record<string, string> = {};
    for (let i = 0; i < 200; i++) spec[`d${i % 9}/f${i}.txt`] = `file ${i}`;
    const { engine, projectId, store } = await projectWithBaseline(spec);
    const before = store.index.snapshotReads.latestSnapshotId();
    resetTrace();
    const result = await engine.rescan(projectId);
    expect(result).toMatchObject({ snapshotId: null, changed: 0, hashed: 0, paths: 200 });
    expect(store.index.snapshotReads.latestSnapshotId()).toBe(before);
    expect(counter('rescan.paths')).toBe(200);
    expect(counter('rescan.lstat')).toBe(0); // the walk found every file: no second look
    expect(counter('walk.lstat')).toBe(200);
    expect(counter('copy.files')).toBe(0);
  });

  it('hashes a racily clean file: same stat as recorded, but changed within the racy window of the last scan', async () => {
    const { engine, root, projectId, store } = await projectWithBaseline({ 'racy.txt': 'AAAA', 'other.txt': 'x' });
    // The file changes right after it was filed, within one timestamp tick: its stat row then
    // matches the disk exactly, though the bytes differ. Simulated by writing the new stat row.
    writeFileSync(join(root, 'racy.txt'), 'BBBB');
    const now = statPath(root, 'racy.txt')!;
    expect(store.index.statCache.statTable().has('racy.txt')).toBe(true);
    store.index.statCache.writeStats([
      { path: 'racy.txt', type: 'file', hash: sha256('AAAA'), mtimeNs: now.mtimeNs, ctimeNs: now.ctimeNs, ino: now.ino, size: now.size, mode: now.mode },
    ]);

    // With the last scan long after the change, the stat is trusted and the change is missed:
    notRacy(store);
    const trusting = await engine.rescan(projectId);
    expect(trusting.changed).toBe(0);

    // With the last scan within 2 s of the file's timestamps, it is hashed and the change found.
    store.index.setMeta('lastScanAt', String(Number(now.mtimeNs) / 1e6 + 1000));
    const racy = await engine.rescan(projectId);
    expect(changedPaths(store, racy.snapshotId)).toEqual(['racy.txt']);
    expect(versionsOf(store, racy.snapshotId)['racy.txt']).toBe(sha256('BBBB'));
  });

  it('open on a folder with a baseline rescans and records, with the same result shape', async () => {
    const { engine, root, store } = await projectWithBaseline({ 'a.txt': 'one', 'b/c.txt': 'two' });
    writeFileSync(join(root, 'b/c.txt'), 'three');
    const opened = await engine.open(root);
    // The first copy's shape, unchanged (other issues may add fields beside these).
    expect(Object.keys(opened)).toEqual(expect.arrayContaining(['blobs', 'bytes', 'files', 'firstCopy', 'ms', 'projectId', 'root']));
    expect(opened).toMatchObject({ firstCopy: false, files: 2, bytes: 8 });
    const last = store.index.snapshotReads.snapshots().at(-1)!;
    expect(last.kind).toBe('change');
    expect(versionsOf(store, last.snapshotId)).toEqual({ 'b/c.txt': sha256('three') });
  });

  it('runs the before-commit hooks first, and puts a checkpoint before a group that replaces many files at once', async () => {
    const spec: Record<string, Buffer> = {};
    for (let i = 0; i < 60; i++) spec[`src/f${i}.bin`] = seededBytes(i, 100);
    const { engine, root, projectId, store } = await projectWithBaseline(spec);
    const seen: { paths: readonly string[]; latest: number | undefined }[] = [];
    engine.addBeforeCommit((s, paths) => {
      seen.push({ paths, latest: s.index.snapshotReads.latestSnapshotId() });
    });
    const baseline = store.index.snapshotReads.latestSnapshotId();
    rmSync(join(root, 'src'), { recursive: true });
    const result = await engine.rescan(projectId);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.paths).toHaveLength(60);
    expect(seen[0]!.latest).toBe(baseline); // the hook ran before anything of the group was written
    const checkpoint = store.index.snapshotReads.snapshot(result.checkpointId!)!;
    expect(checkpoint).toMatchObject({ kind: 'checkpoint', label: 'Before 60 files changed at once', files: 0 });
    expect(result.checkpointId).toBeLessThan(result.snapshotId!);
    // The checkpoint is the moment before: every file is still there at it.
    expect(store.index.files.filesAt(result.checkpointId!)).toHaveLength(60);
    expect(store.index.files.filesAt(result.snapshotId!)).toHaveLength(0);
  });

  it('writes no second checkpoint when a before-commit hook already marked the moment before', async () => {
    const spec: Record<string, Buffer> = {};
    for (let i = 0; i < 60; i++) spec[`src/f${i}.bin`] = seededBytes(i, 100);
    const { engine, root, projectId, store } = await projectWithBaseline(spec);
    engine.addBeforeCommit((s) => {
      insertCheckpoint(s, 'Before checkout to topic');
    });
    rmSync(join(root, 'src'), { recursive: true });
    const result = await engine.rescan(projectId);
    expect(result.checkpointId).toBeNull();
    expect(store.index.snapshotReads.snapshots().map((s) => [s.kind, s.label])).toEqual([
      ['baseline', 'Baseline'],
      ['checkpoint', 'Before checkout to topic'],
      ['change', null],
    ]);
  });

  it('keeps a small change group free of checkpoints', async () => {
    const { engine, root, projectId, store } = await projectWithBaseline({ 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c' });
    writeFileSync(join(root, 'a.txt'), 'A');
    const result = await engine.rescan(projectId);
    expect(result.checkpointId).toBeNull();
    expect(store.index.snapshotReads.snapshots().map((s) => s.kind)).toEqual(['baseline', 'change']);
  });

  it('lists deleted files with the version to restore, and restores one with its folders recreated', async () => {
    const { engine, root, projectId } = await projectWithBaseline({ 'deep/er/file.txt': 'precious', 'top.txt': 't' });
    rmSync(join(root, 'deep'), { recursive: true });
    await engine.rescan(projectId);
    const deleted = engine.deleted(projectId);
    expect(deleted).toHaveLength(1);
    expect(deleted[0]).toMatchObject({ path: 'deep/er/file.txt', size: 8 });
    await engine.restoreFile(projectId, 'deep/er/file.txt', deleted[0]!.lastVersionId!);
    expect(readFileSync(join(root, 'deep/er/file.txt'), 'utf8')).toBe('precious');
    expect(engine.deleted(projectId)).toEqual([]);
  });

  it('names a checkpoint, and restoring it brings that moment back', async () => {
    const { engine, root, projectId, store } = await projectWithBaseline({ 'a.txt': 'first' });
    writeFileSync(join(root, 'a.txt'), 'second');
    const checkpoint = await engine.checkpoint(projectId, '  before the refactor ');
    expect(checkpoint).toMatchObject({ kind: 'checkpoint', label: 'before the refactor' });
    expect(store.index.snapshotReads.snapshot(checkpoint.snapshotId)).toEqual(checkpoint);
    writeFileSync(join(root, 'a.txt'), 'third');
    await engine.restoreSnapshot(projectId, checkpoint.snapshotId);
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('second');
    await expect(engine.checkpoint(projectId, '')).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('looks for the paths of an imported history once: those missing become deletions, and the next rescan reads no version', async () => {
    const { engine, projectId } = await projectWithBaseline({ 'a.txt': 'one', 'src/b.txt': 'two', 'src/c.txt': 'three' });
    const bundle = join(tempDir(), 'h.hsb');
    await engine.exportHistory(projectId, { file: bundle });
    const other = new HistoryEngine(tempDir('hindsight-data-'));
    onTestFinished(() => other.close());
    const moved = tempDir();
    writeFileSync(join(moved, 'a.txt'), 'one');
    const imported = await other.importHistory({ file: bundle }, { as: moved });
    const store = other.store(imported.projectId);
    notRacy(store);

    resetTrace();
    const first = await other.rescan(imported.projectId);
    expect(counter('rescan.uncached')).toBe(3); // every path of the history: no scan had seen them
    expect(changedPaths(store, first.snapshotId)).toEqual(['src/b.txt', 'src/c.txt']);
    expect(versionsOf(store, first.snapshotId)).toEqual({ 'src/b.txt': null, 'src/c.txt': null });

    notRacy(store);
    resetTrace();
    const second = await other.rescan(imported.projectId);
    expect(counter('rescan.uncached')).toBe(0);
    expect(second).toMatchObject({ snapshotId: null, changed: 0, hashed: 0, paths: 1 });
  });
});

describe('rescan in a process that did not open the folder', () => {
  it('uses the exclude patterns of the settings', async () => {
    const { engine, root, projectId } = await projectWithBaseline({ 'a.txt': 'a' });
    await engine.config.editConfig(setSetting('excludePatterns', ['*.tmp']));
    writeFileSync(join(root, 'scratch.tmp'), 'excluded');
    writeFileSync(join(root, 'b.txt'), 'b');
    const fresh = new HistoryEngine(engine.dataDir); // as a CLI `restore` or `checkpoint` would be
    try {
      const result = await fresh.rescan(fresh.locate(root));
      expect(changedPaths(fresh.store(projectId), result.snapshotId)).toEqual(['b.txt']);
    } finally {
      fresh.close();
    }
  });
});
