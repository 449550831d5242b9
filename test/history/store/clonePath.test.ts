import { describe, expect, it, onTestFinished } from 'vitest';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { CopyPool } from '../../../electron/history/store/copyPool.js';
import { CopySlots } from '../../../electron/history/store/copySlots.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { mountOrSkip } from '../../helpers/mountOrSkip.js';
import { mountReflinkFs } from '../../helpers/reflinkMount.js';
import { blobBytes, blobFile } from '../../helpers/storedBlob.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { seededBytes, sha256, writeTree } from '../../helpers/writeTree.js';

async function copyLargeFiles(projectParent: string, dataDir: string, cloneMode: 'auto' | 'clone') {
  const root = join(projectParent, 'project');
  const big = seededBytes(11, 2 * 1024 * 1024 + 5);
  const exec = seededBytes(12, 100_000);
  writeTree(root, { 'media/clip.bin': { data: big, mode: 0o644 }, 'tool.bin': { data: exec, mode: 0o751 } });
  const engine = new HistoryEngine(dataDir);
  const pool = new CopyPool(new CopySlots(2));
  onTestFinished(async () => {
    engine.close();
    await pool.close();
  });
  resetTrace();
  const { projectId } = await engine.open(root, { pool, cloneMode });
  const files = engine.files(projectId);
  const blobsDir = engine.store(projectId).blobs.dir;
  for (const [path, bytes, mode] of [
    ['media/clip.bin', big, 0o644],
    ['tool.bin', exec, 0o751],
  ] as const) {
    const file = files.find((f) => f.path === path)!;
    expect(file.hash).toBe(sha256(bytes));
    expect(file.mode).toBe(mode);
    expect(sha256(blobBytes(blobsDir, file.hash))).toBe(file.hash);
    expect(statSync(blobFile(blobsDir, file.hash)).mode & 0o7777).toBe(0o600); // the file's mode is in its version row
  }
}

describe('large files', () => {
  it('are filed in chunks by default, with no clone tried; files up to 1 MiB are read whole', async () => {
    await copyLargeFiles(tempDir(), tempDir('hindsight-data-'), 'auto');
    expect([counter('copy.chunked'), counter('copy.whole'), counter('copy.clone'), counter('copy.cloneFallbacks')]).toEqual([1, 1, 0, 0]);
  });

  it('asked to clone, fall back to chunks where the file system cannot clone (this ext4 disk)', async () => {
    await copyLargeFiles(tempDir(), tempDir('hindsight-data-'), 'clone');
    // On a disk that cannot clone, the large file takes the fallback; on one that can, it does not.
    const fellBack = counter('copy.cloneFallbacks');
    const fsType = execFileSync('stat', ['-f', '-c', '%T', tmpdir()], { encoding: 'utf8' }).trim();
    if (fsType.startsWith('ext')) expect(fellBack).toBe(1);
    expect(fellBack + counter('copy.clone')).toBe(1);
    expect(counter('copy.chunked')).toBe(fellBack);
  });

  for (const cloneMode of ['clone', 'auto'] as const) {
    it(`${cloneMode === 'clone' ? 'asked to clone, are cloned' : 'are chunked, not cloned,'} where the file system can clone (XFS with reflink on a loop device; skipped where none can be mounted)`, async (ctx) => {
      const mount = mountOrSkip(ctx, mountReflinkFs(), 'an XFS file system with reflink');
      onTestFinished(() => mount.unmount());
      const parent = join(mount.dir, 'work');
      mkdirSync(parent);
      await copyLargeFiles(parent, join(mount.dir, 'data'), cloneMode);
      expect(counter('copy.cloneFallbacks')).toBe(0);
      expect([counter('copy.clone'), counter('copy.chunked')]).toEqual(cloneMode === 'clone' ? [1, 0] : [0, 1]);
    });
  }
});
