import { describe, expect, it, onTestFinished } from 'vitest';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { tempsSweptPath } from '../../../electron/history/store/storeLayout.js';
import { mountOrSkip } from '../../helpers/mountOrSkip.js';
import { mountSmallDisk } from '../../helpers/smallDisk.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { seededBytes, sha256 } from '../../helpers/writeTree.js';
import { projectWithBaseline } from '../versions/versionsHelpers.js';
import { historyWithChanges, otherEngine } from './bundleHelpers.js';
import { failure } from '../../helpers/errorCode.js';

// Every bad bundle gets a clear error and changes nothing: cut off anywhere, a flipped byte in a
// blob, a wrong format version, another project's history --as a folder with its own, a full disk.

/** Every file of a data folder's stores (blobs, database), for "nothing changed". */
function storeFiles(dataDir: string, rel = 'projects'): string[] {
  const dir = join(dataDir, rel);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? storeFiles(dataDir, `${rel}/${e.name}`) : [`${rel}/${e.name}`]));
}

function blobFiles(dataDir: string): string[] {
  return storeFiles(dataDir).filter((f) => /\/blobs\/[0-9a-f]{2}\//.test(f));
}

describe('a bad bundle', () => {
  it('cut off anywhere, or with one byte flipped in a blob, is refused and leaves the history as it was', async () => {
    const { engine, projectId } = await historyWithChanges();
    const dir = tempDir();
    const file = join(dir, 'good.hsb');
    await engine.exportHistory(projectId, { file });
    const good = readFileSync(file);
    const big = good.indexOf(seededBytes(3, 64));
    expect(big).toBeGreaterThan(0);

    const other = otherEngine();
    const moved = tempDir();
    const cuts = [5, 19, 40, 300, big + 1000, good.length - 60, good.length - 1];
    for (const cut of cuts) {
      writeFileSync(join(dir, 'bad.hsb'), good.subarray(0, cut));
      const error = await failure(other.importHistory({ file: join(dir, 'bad.hsb') }, { as: moved }));
      expect(error.code, `cut at ${cut}`).toBe('BUNDLE_CORRUPT');
      expect(blobFiles(other.dataDir), `cut at ${cut}`).toEqual([]);
      expect(other.store(other.locate(moved)).index.snapshotReads.latestSnapshotId()).toBeUndefined();
    }

    const flipped = Buffer.from(good);
    flipped[big + 1000] = flipped[big + 1000]! ^ 0x01;
    writeFileSync(join(dir, 'flipped.hsb'), flipped);
    const error = await failure(other.importHistory({ file: join(dir, 'flipped.hsb') }, { as: moved }));
    expect(error.code).toBe('BUNDLE_CORRUPT');
    expect(error.details).toMatchObject({ hash: sha256(seededBytes(3, 2_500_000)) });
    expect(blobFiles(other.dataDir)).toEqual([]);

    // Bytes after the end, or a flipped byte in the index: refused too.
    writeFileSync(join(dir, 'longer.hsb'), Buffer.concat([good, Buffer.from('x')]));
    expect((await failure(other.importHistory({ file: join(dir, 'longer.hsb') }, { as: moved }))).code).toBe('BUNDLE_CORRUPT');
    const index = Buffer.from(good);
    const label = index.indexOf('before the move');
    index[label] = 'B'.charCodeAt(0);
    writeFileSync(join(dir, 'index.hsb'), index);
    expect((await failure(other.importHistory({ file: join(dir, 'index.hsb') }, { as: moved }))).message).toContain('digest');
    expect(other.store(other.locate(moved)).index.snapshotReads.latestSnapshotId()).toBeUndefined();

    // After all that, the good bundle still imports whole.
    const done = await other.importHistory({ file }, { as: moved });
    expect(done.added).toBe(4);
  });

  it('of another format version, or not a bundle at all, is refused by its first line', async () => {
    const { engine, projectId } = await projectWithBaseline({ 'a.txt': 'a' });
    const dir = tempDir();
    await engine.exportHistory(projectId, { file: join(dir, 'good.hsb') });
    const good = readFileSync(join(dir, 'good.hsb'));
    writeFileSync(join(dir, 'v5.hsb'), Buffer.concat([Buffer.from('hindsight-bundle 5\n'), good.subarray(19)]));
    writeFileSync(join(dir, 'tar.hsb'), 'ustar\0 not a bundle at all, longer than the first line');
    const other = otherEngine();
    const moved = tempDir();
    const newer = await failure(other.importHistory({ file: join(dir, 'v5.hsb') }, { as: moved }));
    expect(newer).toMatchObject({ code: 'BUNDLE_VERSION', details: { version: 5, supported: 4 } });
    expect(newer.message).toContain('newer Hindsight');
    expect((await failure(other.importHistory({ file: join(dir, 'tar.hsb') }, { as: moved }))).code).toBe('BUNDLE_CORRUPT');
    expect((await failure(other.importHistory({ file: join(dir, 'missing.hsb') }, { as: moved }))).code).toBe('NOT_FOUND');
    expect(storeFiles(other.dataDir)).toEqual([]);
  });

  it('of another project, --as a folder with a history of its own, is refused and that history is untouched', async () => {
    const a = await projectWithBaseline({ 'a.txt': 'project a' });
    const b = await projectWithBaseline({ 'b.txt': 'project b' });
    // Two projects of one data folder: the bundle of a, imported --as b's folder.
    const dir = tempDir();
    await a.engine.exportHistory(a.projectId, { file: join(dir, 'a.hsb') });
    const engine = b.engine;
    const before = engine.log(b.projectId);
    const files = storeFiles(engine.dataDir);
    const error = await failure(engine.importHistory({ file: join(dir, 'a.hsb') }, { as: b.root }));
    expect(error).toMatchObject({ code: 'BUNDLE_OTHER_PROJECT', details: { bundleProjectId: a.projectId, projectId: b.projectId } });
    expect(engine.log(b.projectId)).toEqual(before);
    expect(storeFiles(engine.dataDir).filter((f) => !f.endsWith('-wal') && !f.endsWith('-shm'))).toEqual(
      files.filter((f) => !f.endsWith('-wal') && !f.endsWith('-shm')),
    );

    // Its own history, grown apart after a common start, is refused as diverged.
    const copy = otherEngine();
    const moved = tempDir();
    await copy.importHistory({ file: join(dir, 'a.hsb') }, { as: moved });
    writeFileSync(join(a.root, 'a.txt'), 'changed on a');
    await a.engine.rescan(a.projectId);
    writeFileSync(join(moved, 'a.txt'), 'changed elsewhere');
    await copy.open(moved);
    await a.engine.exportHistory(a.projectId, { file: join(dir, 'a2.hsb') }, { since: 1 });
    expect((await failure(copy.importHistory({ file: join(dir, 'a2.hsb') }, { as: moved }))).code).toBe('HISTORY_DIVERGED');
  });

  it('an export since a snapshot the history does not have is refused, and writes no file', async () => {
    const { engine, projectId } = await historyWithChanges();
    const file = join(tempDir(), 'since.hsb');
    const error = await failure(engine.exportHistory(projectId, { file }, { since: 9999 }));
    expect(error.code).toBe('SNAPSHOT_NOT_FOUND');
    expect(error.message).toBe('There is no snapshot 9999.');
    expect(existsSync(file)).toBe(false);
  });

  it('on a full disk stops with DISK_FULL and leaves the store as it was', async (ctx) => {
    const disk = mountOrSkip(ctx, mountSmallDisk(3 * 1024 * 1024), 'a small tmpfs');
    onTestFinished(() => disk.unmount());
    const spec: Record<string, Buffer> = {};
    for (let i = 0; i < 6; i++) spec[`f${i}.bin`] = seededBytes(100 + i, 1024 * 1024);
    const { engine, projectId } = await projectWithBaseline(spec);
    const file = join(tempDir(), 'big.hsb');
    await engine.exportHistory(projectId, { file });

    const other = new HistoryEngine(disk.dir);
    onTestFinished(() => other.close());
    const moved = tempDir();
    // The store exists first (registered, empty), so "as it was" has something to compare with.
    other.store(other.locate(moved));
    const before = storeFiles(disk.dir);
    const error = await failure(other.importHistory({ file }, { as: moved }));
    expect(error.code).toBe('DISK_FULL');
    // The import's writer turn may note its temps sweep (temps.swept, an empty stamp): no history.
    expect(storeFiles(disk.dir).filter((f) => basename(f) !== basename(tempsSweptPath('')))).toEqual(before);
    expect(other.store(other.locate(moved)).index.snapshotReads.latestSnapshotId()).toBeUndefined();
  });
});
