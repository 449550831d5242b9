import { describe, expect, it, onTestFinished } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { isHindsightError } from '../../../shared/errors.js';
import { mountOrSkip } from '../../helpers/mountOrSkip.js';
import { mountSmallDisk } from '../../helpers/smallDisk.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { seededBytes, writeTree, type TreeSpec } from '../../helpers/writeTree.js';

// A first copy into a data folder on a disk that fills up midway (a real tmpfs): one typed error
// naming the disk, and nothing of the copy left in the store, neither temps nor blobs that no
// snapshot names, so the disk is not left full.

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
}

describe('a first copy on a full disk', () => {
  it('stops with DISK_FULL and leaves no blob and no temp behind', async (ctx) => {
    const disk = mountOrSkip(ctx, mountSmallDisk(4 * 1024 * 1024), 'a small tmpfs');
    onTestFinished(() => disk.unmount());
    // Small files (read whole, one write) and large ones (streamed), more than the disk holds.
    const spec: TreeSpec = {};
    for (let i = 0; i < 40; i++) spec[`small/s${i}.bin`] = seededBytes(10 + i, 60 * 1024);
    for (let i = 0; i < 4; i++) spec[`large/l${i}.bin`] = seededBytes(100 + i, 1536 * 1024);
    const root = tempDir();
    writeTree(root, spec);

    const engine = new HistoryEngine(disk.dir);
    onTestFinished(() => engine.close());
    const error = await engine.open(root).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isHindsightError(error) && error.code).toBe('DISK_FULL');
    expect((error as Error).message).toContain('the disk is full');

    const storeDir = join(disk.dir, 'projects', readdirSync(join(disk.dir, 'projects'))[0]!);
    const left = filesUnder(join(storeDir, 'blobs'));
    expect(left).toEqual([]);
    // Nothing was recorded: the next open, on a disk with room, starts the first copy again.
    expect(engine.store(engine.locate(root)).index.snapshotReads.baselineId()).toBeUndefined();
  });
});
