import { describe, expect, it, onTestFinished } from 'vitest';
import { closeSync, openSync, readdirSync, rmSync, statSync, truncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { historyDbPath } from '../../../electron/history/store/storeLayout.js';
import { isHindsightError } from '../../../shared/errors.js';
import { mountOrSkip } from '../../helpers/mountOrSkip.js';
import { mountSmallDisk } from '../../helpers/smallDisk.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree, type TreeSpec } from '../../helpers/writeTree.js';

// The history index's own commit on a full disk (a real tmpfs): the new files' contents are
// already stored, so the only writes are SQLite's, and they are what runs out of room. The
// person sees one line naming history.db and what to do, never SQLite's "disk I/O error", and
// nothing is lost: once there is room, the next rescan records the change.

/** Writes until the disk says ENOSPC, then gives back `room` bytes (the writer lock's file); answers the filler's path. */
function fillDisk(dir: string, room: number): string {
  const file = join(dir, 'filler');
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(4096, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  truncateSync(file, statSync(file).size - room);
  return file;
}

describe('the history index on a full disk', () => {
  it('says so in one line naming history.db, records nothing half, and records the change once there is room', async (ctx) => {
    const disk = mountOrSkip(ctx, mountSmallDisk(8 * 1024 * 1024), 'a small tmpfs');
    onTestFinished(() => disk.unmount());
    const root = tempDir();
    writeTree(root, { 'seed.txt': 'the same bytes in every file\n' });
    const engine = new HistoryEngine(disk.dir);
    onTestFinished(() => engine.close());
    const { projectId } = await engine.open(root);
    const before = engine.log(projectId).length;

    // Thousands of new files with bytes already stored: rows to write, no blob.
    const spec: TreeSpec = {};
    for (let i = 0; i < 4000; i++) spec[`many/f${String(i).padStart(4, '0')}-with-a-longer-name-to-grow-the-index.txt`] = 'the same bytes in every file\n';
    writeTree(root, spec);
    const filler = fillDisk(disk.dir, 64 * 1024);

    const error = await engine.rescan(projectId).then(
      () => undefined,
      (e: unknown) => e,
    );
    const storeDir = join(disk.dir, 'projects', readdirSync(join(disk.dir, 'projects'))[0]!);
    expect(isHindsightError(error) && error.code).toBe('DISK_FULL');
    const message = (error as Error).message;
    expect(message).toContain(historyDbPath(storeDir));
    expect(message).toContain('the disk is full');
    expect(message).not.toContain('\n');
    expect(message).not.toMatch(/disk I\/O error|SQLITE_/);
    expect(engine.log(projectId)).toHaveLength(before);

    rmSync(filler);
    const after = await engine.rescan(projectId);
    expect(after.snapshotId).toBeDefined();
    expect(engine.files(projectId).filter((f) => f.path.startsWith('many/'))).toHaveLength(4000);
  });
});
