import { describe, expect, it, onTestFinished } from 'vitest';
import { readFileSync, statSync, writeFileSync, chmodSync, renameSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { CopyPool } from '../../../electron/history/store/copyPool.js';
import { CopySlots } from '../../../electron/history/store/copySlots.js';
import { blobPath } from '../../../electron/history/store/storeLayout.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { HindsightError } from '../../../shared/errors.js';
import type { Progress } from '../../../shared/progress.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { readTree, seededBytes, sha256, writeTree, type TreeSpec } from '../../helpers/writeTree.js';
import { blobBytes } from '../../helpers/storedBlob.js';

function engineWithPool(limit: number): { engine: HistoryEngine; pool: CopyPool } {
  const engine = new HistoryEngine(tempDir('hindsight-data-'));
  const pool = new CopyPool(new CopySlots(limit));
  onTestFinished(async () => {
    engine.close();
    await pool.close();
  });
  return { engine, pool };
}

/** Progress as the engine announces it: its events, told synchronously as the work goes. */
function onProgressOf(engine: HistoryEngine, listener: (progress: Progress) => void): void {
  engine.events.on((event) => {
    if (event.event === 'progress') listener(event.payload);
  });
}

function smallFiles(count: number, seed: number): TreeSpec {
  const spec: TreeSpec = {};
  for (let i = 0; i < count; i++) spec[`src/d${i % 7}/f${i}.sh`] = seededBytes(seed + i, 200 + ((i * 37) % 3000));
  return spec;
}

describe('first copy', () => {
  it('copies a few files at a time across every project opening together', async () => {
    const { engine, pool } = engineWithPool(2);
    const folders = [0, 1, 2].map((n) => {
      const dir = tempDir();
      writeTree(dir, smallFiles(300, n * 1000));
      return dir;
    });
    resetTrace();
    const results = await Promise.all(folders.map((folder) => engine.open(folder, { pool })));
    expect(results.map((r) => r.files)).toEqual([300, 300, 300]);
    // Never more than the shared limit in flight, and the limit was actually used.
    expect(counter('copy.maxInFlight')).toBe(2);
    expect(pool.slots.busy).toBe(0);
  });

  for (const umask of [0o077, 0o022, 0o000]) {
    it(`keeps the same contents and permissions, small files and large, under umask ${umask.toString(8).padStart(3, '0')}`, async () => {
      const previous = process.umask(umask);
      onTestFinished(() => {
        process.umask(previous);
      });
      const { engine, pool } = engineWithPool(4);
      const root = tempDir();
      const modes = [0o755, 0o644, 0o600, 0o444, 0o700, 0o640, 0o4755];
      const spec: TreeSpec = {};
      modes.forEach((mode, i) => {
        spec[`small/m${mode.toString(8)}.sh`] = { data: seededBytes(i + 1, 100 + i * 500), mode };
        spec[`large/m${mode.toString(8)}.bin`] = { data: seededBytes(i + 50, 70_000 + i * 40_000), mode };
      });
      spec['empty.txt'] = '';
      writeTree(root, spec);
      for (const [path, value] of Object.entries(spec)) {
        if (typeof value === 'object' && 'mode' in value && value.mode !== undefined) chmodSync(join(root, path), value.mode);
      }
      const before = readTree(root);
      const { projectId } = await engine.open(root, { pool });
      const store = engine.store(projectId);
      for (const file of engine.files(projectId)) {
        expect(file.mode, file.path).toBe(before[file.path]!.mode);
        expect(file.hash, file.path).toBe(before[file.path]!.hash);
        const stored = blobPath(store.blobs.dir, file.hash);
        expect(sha256(readFileSync(stored)), file.path).toBe(file.hash);
      }
      // The file's bits are in its version row; the blob itself is private (0600), whatever the umask.
      for (const mode of modes) {
        const small = engine.files(projectId).find((f) => f.path === `small/m${mode.toString(8)}.sh`)!;
        expect(statSync(blobPath(store.blobs.dir, small.hash)).mode & 0o7777).toBe(0o600);
        const large = engine.files(projectId).find((f) => f.path === `large/m${mode.toString(8)}.bin`)!;
        expect(statSync(blobPath(store.blobs.dir, large.hash)).mode & 0o7777).toBe(0o600);
      }
      // A restore under the same umask puts back the exact bytes and bits.
      const baseline = new Map(engine.files(projectId).map((f) => [f.path, f]));
      for (const path of baseline.keys()) {
        chmodSync(join(root, path), 0o600);
        writeFileSync(join(root, path), 'changed');
        const version = engine.versions(projectId, path)[0]!;
        await engine.restoreFile(projectId, path, version.versionId);
      }
      expect(readTree(root)).toEqual(before);
    });
  }

  it('counts a blob once when two copies of it are filed together', async () => {
    const { engine, pool } = engineWithPool(4);
    const root = tempDir();
    const small = seededBytes(7, 5000);
    const large = seededBytes(8, 300_000);
    writeTree(root, {
      'a/one.txt': small,
      'b/two.txt': small,
      'c/big1.bin': large,
      'd/big2.bin': large,
      'e/other.txt': 'other',
    });
    const result = await engine.open(root, { pool });
    expect(result.files).toBe(5);
    expect(result.blobs).toBe(3);
    // All three raw (random bytes do not compress): their bytes on disk are their sizes, recorded as filed.
    const bytes = small.length + large.length + 5;
    expect(engine.store(result.projectId).index.blobRecords.blobTotals()).toEqual({ blobs: 3, bytes, storedBytes: bytes, compressed: 0, raw: 3, unknown: 0 });
  });

  it('files a large file in chunks where clones are not supported', async () => {
    const { engine, pool } = engineWithPool(2);
    const root = tempDir();
    const bytes = seededBytes(3, 3 * 1024 * 1024 + 17);
    writeTree(root, { 'video.bin': { data: bytes, mode: 0o640 } });
    resetTrace();
    const { projectId } = await engine.open(root, { pool, cloneMode: 'never' });
    expect(counter('copy.chunked')).toBe(1);
    expect(counter('copy.clone')).toBe(0);
    const file = engine.files(projectId)[0]!;
    expect(file).toMatchObject({ path: 'video.bin', hash: sha256(bytes), size: bytes.length, mode: 0o640 });
    expect(sha256(blobBytes(engine.store(projectId).blobs.dir, file.hash))).toBe(sha256(bytes));
  });

  it('records symlinks as links and never follows them out of the folder', async () => {
    const { engine, pool } = engineWithPool(2);
    const outside = tempDir('hindsight-outside-');
    writeTree(outside, { 'secret.txt': 'do not copy me', 'dir/deep.txt': 'nor me' });
    const root = tempDir();
    writeTree(root, {
      'a/file.txt': 'inside',
      'to-file': { link: join(outside, 'secret.txt') },
      'to-dir': { link: outside },
      relative: { link: 'a/file.txt' },
      dangling: { link: 'nowhere/at/all' },
    });
    const { projectId } = await engine.open(root, { pool });
    const files = engine.files(projectId);
    expect(files.map((f) => [f.path, f.type, f.target ?? null])).toEqual([
      ['a/file.txt', 'file', null],
      ['dangling', 'symlink', 'nowhere/at/all'],
      ['relative', 'symlink', 'a/file.txt'],
      ['to-dir', 'symlink', outside],
      ['to-file', 'symlink', join(outside, 'secret.txt')],
    ]);
    const hashes = new Set(
      engine
        .store(projectId)
        .index.blobRecords.blobs()
        .map((b) => b.hash),
    );
    expect(hashes.has(sha256('do not copy me'))).toBe(false);
    expect(hashes.has(sha256('nor me'))).toBe(false);
  });

  it('honours .gitignore files at every level and always skips .git', async () => {
    const { engine, pool } = engineWithPool(2);
    const root = tempDir();
    writeTree(root, {
      '.gitignore': '*.log\nbuild/\n!keep.log\n',
      'app.log': 'x',
      'keep.log': 'kept',
      'build/out.js': 'x',
      'src/build.js': 'a file named build is not the build folder',
      'src/.gitignore': 'local.txt\n!../never.txt\n',
      'src/local.txt': 'x',
      'src/main.ts': 'main',
      'src/deep/local.txt': 'x',
      'other/local.txt': 'not under src: kept',
      '.git/HEAD': 'ref: refs/heads/main\n',
      'sub/.git': 'gitdir: elsewhere',
    });
    const { projectId } = await engine.open(root, { pool });
    expect(engine.files(projectId).map((f) => f.path)).toEqual(['.gitignore', 'keep.log', 'other/local.txt', 'src/.gitignore', 'src/build.js', 'src/main.ts']);
  });

  it('detects a folder replaced during the copy and writes no baseline', async () => {
    const { engine, pool } = engineWithPool(1);
    const parent = tempDir();
    const root = join(parent, 'project');
    writeTree(root, smallFiles(200, 1));
    let replaced = false;
    const onProgress = (p: Progress) => {
      if (p.phase === 'copy' && !replaced) {
        replaced = true;
        renameSync(root, join(parent, 'moved-away'));
        mkdirSync(root);
      }
    };
    onProgressOf(engine, onProgress);
    const error = await engine.open(root, { pool }).catch((e: unknown) => e);
    expect(replaced).toBe(true);
    expect(error).toBeInstanceOf(HindsightError);
    expect((error as HindsightError).code).toBe('FOLDER_REPLACED');
    expect(engine.store(engine.locate(join(parent, 'moved-away'))).index.snapshotReads.baselineId()).toBeUndefined();
  });

  it('fails clearly when the folder vanishes during the copy', async () => {
    const { engine, pool } = engineWithPool(1);
    const parent = tempDir();
    const root = join(parent, 'project');
    writeTree(root, smallFiles(200, 2));
    let removed = false;
    onProgressOf(engine, (p) => {
      if (p.phase === 'copy' && !removed) {
        removed = true;
        rmSync(root, { recursive: true, force: true });
      }
    });
    const error = await engine.open(root, { pool }).catch((e: unknown) => e);
    expect((error as HindsightError).code).toBe('FOLDER_VANISHED');
  });

  it('reports progress at most every 100 ms and once at the end', async () => {
    const { engine, pool } = engineWithPool(2);
    const root = tempDir();
    writeTree(root, smallFiles(500, 9));
    const events: Progress[] = [];
    onProgressOf(engine, (p) => events.push(p));
    await engine.open(root, { pool });
    const last = events.at(-1)!;
    expect(last.phase).toBe('done');
    expect(last.filesDone).toBe(500);
    expect(last.filesTotal).toBe(500);
    expect(last.bytesDone).toBe(last.bytesTotal);
    // scan + commit + done are unthrottled markers; copy ticks are throttled.
    const copyTicks = events.filter((e) => e.phase === 'copy');
    expect(copyTicks.length).toBeGreaterThanOrEqual(1);
    expect(copyTicks.length).toBeLessThan(500 / 32);
  });

  it('refuses a path that is not a folder, or not there', async () => {
    const { engine } = engineWithPool(1);
    const dir = tempDir();
    writeTree(dir, { 'file.txt': 'x' });
    await expect(engine.open(join(dir, 'file.txt'))).rejects.toMatchObject({ code: 'NOT_A_FOLDER' });
    await expect(engine.open(join(dir, 'missing'))).rejects.toMatchObject({ code: 'FOLDER_NOT_FOUND' });
  });
});

describe('a folder replaced at the same path', () => {
  it('is refused once it has a history, and the old history is left as it was', async () => {
    const parent = tempDir();
    const root = join(parent, 'project');
    writeTree(root, { 'a.txt': 'old' });
    const dataDir = tempDir('hindsight-data-');
    const first = new HistoryEngine(dataDir);
    await first.open(root);
    first.close();
    rmSync(root, { recursive: true });
    writeTree(root, { 'a.txt': 'a different folder' });
    const second = new HistoryEngine(dataDir);
    onTestFinished(() => second.close());
    await expect(second.open(root)).rejects.toMatchObject({ code: 'FOLDER_REPLACED' });
  });
});
