import { describe, expect, it } from 'vitest';
import { chmodSync, close, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BackgroundCloser, type CloseFunction } from '../../../electron/history/restore/backgroundCloser.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { setSetting } from '../../../electron/history/config/projectEdits.js';
import { HindsightError } from '../../../shared/errors.js';
import type { Progress } from '../../../shared/progress.js';
import { readTree, seededBytes, sha256, type TreeSpec } from '../../helpers/writeTree.js';
import { notRacy, projectWithBaseline, readBack } from '../versions/versionsHelpers.js';

function tree(count: number, seed: number): TreeSpec {
  const spec: TreeSpec = {};
  for (let i = 0; i < count; i++) spec[`src/m${i % 5}/f${i}.txt`] = seededBytes(seed + i, 50 + (i % 200));
  return spec;
}

describe('restoring a snapshot', () => {
  it('puts a changed tree back exactly, keeps files added since, and is undone by restoring the snapshot before it', async () => {
    const { engine, root, store, projectId } = await projectWithBaseline({
      ...tree(40, 1),
      'bin/run.sh': { data: '#!/bin/sh\necho hi\n', mode: 0o755 },
      'docs/link': { link: '../src/m0/f0.txt' },
      'private.key': { data: 'secret', mode: 0o600 },
    });
    const baseline = store.index.snapshotReads.baselineId()!;
    const original = readTree(root);
    // Change the tree every way there is.
    writeFileSync(join(root, 'src/m1/f1.txt'), 'edited');
    rmSync(join(root, 'src/m2'), { recursive: true });
    chmodSync(join(root, 'bin/run.sh'), 0o644);
    rmSync(join(root, 'docs/link'));
    symlinkSync('elsewhere', join(root, 'docs/link'));
    writeFileSync(join(root, 'added.txt'), 'new since');
    const changed = readTree(root);

    const preview = await engine.previewRestore(projectId, baseline);
    expect(preview.write.sort()).toEqual(['bin/run.sh', 'docs/link', 'src/m1/f1.txt']);
    expect(preview.recreate).toHaveLength(8);
    expect(preview.added).toEqual(['added.txt']);
    expect(preview.delete).toEqual([]);
    expect(preview.unchanged).toBe(43 - 3 - 8);

    notRacy(store);
    const progress: Progress[] = [];
    engine.events.on((e) => e.event === 'progress' && progress.push(e.payload));
    const result = await engine.restoreSnapshot(projectId, baseline);
    expect(result).toMatchObject({ written: 3, recreated: 8, deleted: 0, kept: 1 });
    expect(readTree(root)).toEqual({ ...original, 'added.txt': changed['added.txt'] });
    expect(store.index.snapshotReads.snapshot(result.snapshotId!)!.kind).toBe('restore');
    expect(progress.at(-1)).toMatchObject({ operation: 'restore', phase: 'done', filesDone: 11, filesTotal: 11 });

    // Undo: restoring the snapshot before the restore brings back the changed tree, byte for byte.
    notRacy(store);
    await engine.restoreSnapshot(projectId, result.undoSnapshotId!, { deleteAdded: true });
    expect(readTree(root)).toEqual(changed);
  });

  it('restores one folder only, and deletes added files only when asked, after recording them', async () => {
    const { engine, root, store, projectId } = await projectWithBaseline({ 'a/one.txt': '1', 'a/two.txt': '2', 'b/three.txt': '3' });
    const baseline = store.index.snapshotReads.baselineId()!;
    writeFileSync(join(root, 'a/one.txt'), 'one!');
    writeFileSync(join(root, 'b/three.txt'), 'three!');
    writeFileSync(join(root, 'a/added.txt'), 'added later');
    const result = await engine.restoreSnapshot(projectId, baseline, { prefix: 'a', deleteAdded: true });
    expect(result).toMatchObject({ written: 1, deleted: 1 });
    expect(readFileSync(join(root, 'a/one.txt'), 'utf8')).toBe('1');
    expect(readFileSync(join(root, 'b/three.txt'), 'utf8')).toBe('three!'); // outside the prefix
    expect(existsSync(join(root, 'a/added.txt'))).toBe(false);
    // The deleted file's contents were recorded before it went.
    const added = store.index.versions.versionsOf('a/added.txt');
    expect(added.map((v) => v.hash)).toEqual([sha256('added later'), null]);
    expect(await readBack(engine, projectId, 'a/added.txt')).toBe('added later');
  });

  it('recreates a deleted file and its folders from a snapshot with --path', async () => {
    const { engine, root, store, projectId } = await projectWithBaseline({ 'x/y/z/deep.txt': 'deep', 'top.txt': 't' });
    rmSync(join(root, 'x'), { recursive: true });
    const result = await engine.restoreSnapshot(projectId, store.index.snapshotReads.baselineId()!, { prefix: 'x/y/z/deep.txt' });
    expect(result.recreated).toBe(1);
    expect(readFileSync(join(root, 'x/y/z/deep.txt'), 'utf8')).toBe('deep');
  });

  it('refuses an unknown snapshot and a path outside the project', async () => {
    const { engine, projectId } = await projectWithBaseline({ 'a.txt': 'a' });
    await expect(engine.restoreSnapshot(projectId, 999)).rejects.toMatchObject({ code: 'SNAPSHOT_NOT_FOUND' });
    await expect(engine.previewRestore(projectId, 1, { prefix: '../etc' })).rejects.toMatchObject({ code: 'PATH_OUTSIDE_ROOT' });
  });

  it('reports a failed close, puts every file back as it was, and records nothing as restored', async () => {
    const { engine, root, store, projectId } = await projectWithBaseline(tree(30, 7));
    const baseline = store.index.snapshotReads.baselineId()!;
    for (let i = 0; i < 30; i++) writeFileSync(join(root, `src/m${i % 5}/f${i}.txt`), `changed ${i}`);
    const changed = readTree(root);
    // A close that fails for real is not something a local file system does on demand (it takes
    // NFS or FUSE), so the closer is given a close function that closes the file for real and
    // then reports EIO for two of them, as a network file system reports a failed flush.
    let closes = 0;
    const failing: CloseFunction = (fd, callback) =>
      close(fd, (error) => {
        closes++;
        if (error) return callback(error);
        callback(closes === 3 || closes === 17 ? Object.assign(new Error('EIO: i/o error, close'), { code: 'EIO' }) : null);
      });
    const closer = new BackgroundCloser({ close: failing });
    resetTrace();
    const error = await engine.restoreSnapshot(projectId, baseline, { closer }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HindsightError);
    const failure = error as HindsightError;
    expect(failure.code).toBe('CLOSE_FAILED');
    expect(failure.message).toMatch(/every change was put back/);
    const failed = (failure.details!.failed as { path: string }[]).map((f) => f.path);
    expect(failed).toHaveLength(2);
    expect(counter('close.background')).toBe(30);
    // All or nothing: the 28 files written are put back as they were, and no restore is recorded.
    const now = readTree(root);
    expect(now).toEqual(changed);
    expect((failure.details!.putBack as string[]).sort()).toEqual(
      Object.keys(changed)
        .filter((p) => !failed.includes(p))
        .sort(),
    );
    expect(store.index.snapshotReads.snapshots().map((s) => s.kind)).not.toContain('restore');
    // No temp is left behind.
    const leftovers = Object.keys(now).filter((p) => p.includes('.hindsight-'));
    expect(leftovers).toEqual([]);
    expect(readdirSync(join(root, 'src/m0')).some((n) => n.includes('.hindsight-'))).toBe(false);
  });

  it('a restore with every close failing writes nothing and says so', async () => {
    const { engine, root, store, projectId } = await projectWithBaseline({ 'a.txt': 'old a', 'b.txt': 'old b' });
    writeFileSync(join(root, 'a.txt'), 'new a');
    mkdirSync(join(root, 'c'));
    const closer = new BackgroundCloser({ close: (fd, cb) => close(fd, () => cb(Object.assign(new Error('EIO'), { code: 'EIO' }))) });
    await expect(engine.restoreSnapshot(projectId, store.index.snapshotReads.baselineId()!, { closer })).rejects.toMatchObject({ code: 'CLOSE_FAILED' });
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('new a');
    expect(store.index.snapshotReads.snapshots().map((s) => s.kind)).toEqual(['baseline', 'change']);
  });

  it('closes in the background when the backgroundClose setting says on', async () => {
    const { engine, root, store, projectId } = await projectWithBaseline(tree(12, 40));
    const baseline = store.index.snapshotReads.baselineId()!;
    for (const path of Object.keys(tree(12, 40))) writeFileSync(join(root, path), 'edited');
    notRacy(store);
    await engine.config.editConfig(setSetting('backgroundClose', 'on'));
    const previous = process.env.HINDSIGHT_BACKGROUND_CLOSE;
    delete process.env.HINDSIGHT_BACKGROUND_CLOSE;
    try {
      resetTrace();
      await engine.restoreSnapshot(projectId, baseline);
      expect(counter('close.background')).toBe(12);
      await engine.config.editConfig(setSetting('backgroundClose', 'off'));
      for (const path of Object.keys(tree(12, 40))) writeFileSync(join(root, path), 'edited again');
      resetTrace();
      await engine.restoreSnapshot(projectId, baseline);
      expect(counter('close.background')).toBe(0);
    } finally {
      if (previous !== undefined) process.env.HINDSIGHT_BACKGROUND_CLOSE = previous;
    }
  });
});
