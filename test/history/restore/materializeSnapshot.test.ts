import { describe, expect, it } from 'vitest';
import { chmodSync, closeSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { BackgroundCloser, type CloseFunction } from '../../../electron/history/restore/backgroundCloser.js';
import { localBlobSource, materializeSnapshot, type BlobSource } from '../../../electron/history/restore/materializeSnapshot.js';
import { blobPath } from '../../../electron/history/store/storeLayout.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { HindsightError } from '../../../shared/errors.js';
import type { FileEntry } from '../../../shared/history.js';
import type { Progress } from '../../../shared/progress.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { readTree, seededBytes, sha256, type TreeSpec } from '../../helpers/writeTree.js';
import { notRacy, projectWithBaseline } from '../versions/versionsHelpers.js';

// A snapshot written into a new folder: exact bytes, file and folder modes, links; the project
// untouched; a destination that is not new or empty refused; a damaged blob, a failed close, a
// crafted entry list or a cancel leaving no folder and no temp behind.

const SPEC: TreeSpec = {
  'src/a.txt': 'alpha\n',
  'src/deep/b.bin': seededBytes(7, 300_000),
  'bin/run.sh': { data: '#!/bin/sh\necho hi\n', mode: 0o755 },
  'secret/key': { data: 'k', mode: 0o600 },
  'setuid-ish': { data: 'x', mode: 0o4750 },
  'docs/link': { link: '../src/a.txt' },
  dangling: { link: 'nowhere/at/all' },
  'empty.txt': '',
};

function modeOf(path: string): number {
  return statSync(path).mode & 0o7777;
}

/** Nothing named like the destination's temp is left beside it. */
function leftovers(into: string): string[] {
  return readdirSync(dirname(into)).filter((name) => name.startsWith(`.${basename(into)}.hindsight-`));
}

async function code(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HindsightError);
  return (error as HindsightError).code;
}

describe('writing a snapshot into a new folder', () => {
  for (const umask of [0o000, 0o077]) {
    it(`gives every snapshot back exactly (bytes, modes, links, folder modes) under umask ${umask.toString(8).padStart(3, '0')}`, async () => {
      const { engine, root, store, projectId } = await projectWithBaseline(SPEC);
      chmodSync(join(root, 'secret'), 0o700);
      chmodSync(join(root, 'bin'), 0o750);
      notRacy(store);
      await engine.rescan(projectId);
      const first = readTree(root);
      const firstId = store.index.snapshotReads.latestSnapshotId()!;
      writeFileSync(join(root, 'src/a.txt'), 'changed');
      chmodSync(join(root, 'bin/run.sh'), 0o700);
      rmSync(join(root, 'docs'), { recursive: true });
      chmodSync(join(root, 'secret'), 0o711);
      notRacy(store);
      await engine.rescan(projectId);
      const second = readTree(root);
      const secondId = store.index.snapshotReads.latestSnapshotId()!;
      expect(secondId).toBeGreaterThan(firstId);

      const out = tempDir();
      const previous = process.umask(umask);
      try {
        const a = await engine.materializeSnapshot(projectId, firstId, join(out, 'first'));
        expect(a).toMatchObject({ projectId, snapshotId: firstId, into: join(out, 'first'), files: 6, links: 2, bytes: 6 + 300_000 + 18 + 1 + 1 });
        // An existing empty folder is filled and keeps its own mode.
        mkdirSync(join(out, 'second'), 0o751);
        chmodSync(join(out, 'second'), 0o751);
        await engine.materializeSnapshot(projectId, secondId, join(out, 'second'));
      } finally {
        process.umask(previous);
      }
      expect(readTree(join(out, 'first'))).toEqual(first);
      expect(readTree(join(out, 'second'))).toEqual(second);
      expect(modeOf(join(out, 'first/secret'))).toBe(0o700);
      expect(modeOf(join(out, 'first/bin'))).toBe(0o750);
      expect(modeOf(join(out, 'second/secret'))).toBe(0o711);
      expect(modeOf(join(out, 'second'))).toBe(0o751);
      expect(modeOf(join(out, 'first/setuid-ish'))).toBe(0o4750);
      expect(existsSync(join(out, 'second/docs'))).toBe(false);
      expect(leftovers(join(out, 'first'))).toEqual([]);
      // The project itself was not touched.
      expect(readTree(root)).toEqual(second);
    });
  }

  it('refuses a folder that is not empty, a file, a missing parent and the data folder, writing nothing', async () => {
    const { engine, projectId, store } = await projectWithBaseline({ 'a.txt': 'a' });
    const id = store.index.snapshotReads.baselineId()!;
    const out = tempDir();
    mkdirSync(join(out, 'full'));
    writeFileSync(join(out, 'full/keep.txt'), 'mine');
    writeFileSync(join(out, 'file'), 'a file');
    expect(await code(engine.materializeSnapshot(projectId, id, join(out, 'full')))).toBe('FOLDER_NOT_EMPTY');
    expect(readdirSync(join(out, 'full'))).toEqual(['keep.txt']);
    expect(await code(engine.materializeSnapshot(projectId, id, join(out, 'file')))).toBe('NOT_A_FOLDER');
    expect(readFileSync(join(out, 'file'), 'utf8')).toBe('a file');
    expect(await code(engine.materializeSnapshot(projectId, id, join(out, 'no/such/parent')))).toBe('FOLDER_NOT_FOUND');
    expect(await code(engine.materializeSnapshot(projectId, id, join(engine.dataDir, 'inside')))).toBe('FOLDER_IN_DATA_DIR');
    expect(await code(engine.materializeSnapshot(projectId, id, join(store.root, 'inside')))).toBe('FOLDER_IN_PROJECT');
    expect(await code(engine.materializeSnapshot(projectId, 999, join(out, 'new')))).toBe('SNAPSHOT_NOT_FOUND');
    expect(readdirSync(out).sort()).toEqual(['file', 'full']);
  });

  it('stops at a damaged blob (same size, one byte flipped): no folder, no temp', async () => {
    const { engine, projectId, store } = await projectWithBaseline({ 'a.txt': 'aaaa', 'b.txt': 'bbbb', 'c.txt': 'cccc' });
    const blob = blobPath(store.blobs.dir, sha256('bbbb'));
    chmodSync(blob, 0o600);
    writeFileSync(blob, 'bbbc');
    const into = join(tempDir(), 'copy');
    const error = await engine.materializeSnapshot(projectId, store.index.snapshotReads.baselineId()!, into).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BLOB_CORRUPT', details: { hash: sha256('bbbb') } });
    expect(existsSync(into)).toBe(false);
    expect(leftovers(into)).toEqual([]);
  });

  it('in place: fills the same empty folder (its inode kept, no temp beside it), and a damaged blob empties it again', async () => {
    const { store, projectId } = await projectWithBaseline({ 'a.txt': 'aaaa', 'd/b.txt': 'bbbb', 'd/e/c.txt': 'cccc' });
    const id = store.index.snapshotReads.baselineId()!;
    const contents = { projectId, snapshotId: id, files: store.index.files.filesAt(id), folderModeOf: () => undefined };
    const into = join(tempDir(), 'same');
    mkdirSync(into);
    const inode = statSync(into).ino;
    await materializeSnapshot(contents, into, localBlobSource(store.blobs), { inPlace: true });
    expect(statSync(into).ino).toBe(inode);
    expect(readFileSync(join(into, 'd/e/c.txt'), 'utf8')).toBe('cccc');
    expect(leftovers(into)).toEqual([]);

    const again = join(tempDir(), 'again');
    mkdirSync(again);
    const againInode = statSync(again).ino;
    const blob = blobPath(store.blobs.dir, sha256('cccc'));
    chmodSync(blob, 0o600);
    writeFileSync(blob, 'cccd');
    const error = await materializeSnapshot(contents, again, localBlobSource(store.blobs), { inPlace: true }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BLOB_CORRUPT' });
    expect(statSync(again).ino).toBe(againInode);
    expect(readdirSync(again)).toEqual([]);
    expect(await code(materializeSnapshot(contents, join(tempDir(), 'missing'), localBlobSource(store.blobs), { inPlace: true }))).toBe('FOLDER_NOT_FOUND');
  });

  it('hands every close to the background closer (at most 4 in flight), and a failed close leaves nothing', async () => {
    const spec: TreeSpec = {};
    for (let i = 0; i < 60; i++) spec[`f/${i}.txt`] = `file ${i}`;
    const { store, projectId } = await projectWithBaseline(spec);
    const id = store.index.snapshotReads.baselineId()!;
    const contents = {
      projectId,
      snapshotId: id,
      files: store.index.files.filesAt(id),
      folderModeOf: (p: string) => store.index.folderModes.folderModeAt(id, p),
    };
    // Closes that finish only later, out of order: the writer goes on meanwhile.
    const slow: CloseFunction = (fd, callback) =>
      setTimeout(() => {
        closeSync(fd);
        callback(null);
      }, fd % 3);
    const closer = new BackgroundCloser({ close: slow });
    resetTrace();
    const into = join(tempDir(), 'out');
    const done = await materializeSnapshot(contents, into, localBlobSource(store.blobs), { closer });
    expect(done.backgroundClose).toBe(true);
    expect(counter('close.background')).toBe(60);
    expect(closer.peakInFlight).toBe(4);
    expect(readdirSync(join(into, 'f'))).toHaveLength(60);
    expect(readFileSync(join(into, 'f/59.txt'), 'utf8')).toBe('file 59');

    // Off: the same run closes inline, none in the background.
    resetTrace();
    const inline = await materializeSnapshot(contents, join(tempDir(), 'out'), localBlobSource(store.blobs), { background: false });
    expect(inline.backgroundClose).toBe(false);
    expect(counter('close.background')).toBe(0);

    let calls = 0;
    const failing: CloseFunction = (fd, callback) => {
      closeSync(fd);
      callback(++calls === 30 ? Object.assign(new Error('EIO: i/o error, close'), { code: 'EIO' }) : null);
    };
    const broken = join(tempDir(), 'broken');
    const error = await materializeSnapshot(contents, broken, localBlobSource(store.blobs), { closer: new BackgroundCloser({ close: failing }) }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'CLOSE_FAILED' });
    expect(existsSync(broken)).toBe(false);
    expect(leftovers(broken)).toEqual([]);
  });

  it('takes its bytes from any source, and refuses an entry list where a link stands in for a folder', async () => {
    const bytes = new Map([[sha256('remote bytes'), Buffer.from('remote bytes')]]);
    // A source that answers later, as a remote fetcher does.
    const source: BlobSource = {
      writeInto: async (hash, _size, fd) => {
        await new Promise((resolve) => setImmediate(resolve));
        writeSync(fd, bytes.get(hash)!);
      },
    };
    const file: FileEntry = { path: 'dir/r.txt', type: 'file', hash: sha256('remote bytes'), mode: 0o640, size: 12 };
    const into = join(tempDir(), 'r');
    await materializeSnapshot({ projectId: 'p', snapshotId: 1, files: [file], folderModeOf: () => 0o701 }, into, source);
    expect(readFileSync(join(into, 'dir/r.txt'), 'utf8')).toBe('remote bytes');
    expect(modeOf(join(into, 'dir/r.txt'))).toBe(0o640);
    expect(modeOf(join(into, 'dir'))).toBe(0o701);

    const outside = tempDir();
    const crafted: FileEntry[] = [
      { path: 'dir', type: 'symlink', hash: sha256(outside), mode: 0o777, size: outside.length, target: outside },
      { ...file, path: 'dir/escape.txt' },
    ];
    const target = join(tempDir(), 'c');
    const error = await materializeSnapshot({ projectId: 'p', snapshotId: 1, files: crafted, folderModeOf: () => undefined }, target, source).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'RESTORE_FAILED' });
    expect(readdirSync(outside)).toEqual([]);
    expect(existsSync(target)).toBe(false);
    const escaping: FileEntry = { ...file, path: '../escape.txt' };
    const refused = await materializeSnapshot({ projectId: 'p', snapshotId: 1, files: [escaping], folderModeOf: () => undefined }, target, source).catch(
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({ code: 'PATH_OUTSIDE_ROOT' });
  });

  it('is cancelled between files, reports bytes with an ETA, and leaves nothing', async () => {
    const spec: TreeSpec = {};
    for (let i = 0; i < 20; i++) spec[`f${i}.bin`] = seededBytes(i, 10_000);
    const { store, projectId } = await projectWithBaseline(spec);
    const id = store.index.snapshotReads.baselineId()!;
    const contents = { projectId, snapshotId: id, files: store.index.files.filesAt(id), folderModeOf: () => undefined };
    const seen: Progress[] = [];
    const whole = join(tempDir(), 'whole');
    await materializeSnapshot(contents, whole, localBlobSource(store.blobs), { onProgress: (p) => seen.push(p) });
    expect(seen[0]).toMatchObject({ operation: 'materialize', phase: 'write', bytesTotal: 200_000, bytesDone: 0 });
    expect(seen.at(-1)).toMatchObject({ phase: 'done', bytesDone: 200_000, filesDone: 20, etaMs: 0 });

    const controller = new AbortController();
    let writes = 0;
    const local = localBlobSource(store.blobs);
    const stopping: BlobSource = {
      writeInto: (hash, size, fd) => {
        if (++writes === 5) controller.abort();
        return local.writeInto(hash, size, fd);
      },
    };
    const into = join(tempDir(), 'cut');
    expect(await code(materializeSnapshot(contents, into, stopping, { signal: controller.signal }))).toBe('CANCELLED');
    expect(writes).toBe(5);
    expect(existsSync(into)).toBe(false);
    expect(leftovers(into)).toEqual([]);
  });
});
