import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BlobStore } from '../../../electron/history/store/blobStore.js';
import { storeDiskUsage } from '../../../electron/history/store/storeDiskUsage.js';
import { blobsDirOf, historyBackupPath, historyDbPath, restoreJournalDir, TEMP_PREFIX } from '../../../electron/history/store/storeLayout.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { seededBytes } from '../../helpers/writeTree.js';

// What a store folder takes on disk, part by part (store/storeDiskUsage.ts): each file in the
// part its name puts it in, in allocated blocks, a hard link once, and the parts adding up to
// what real `du -s --block-size=1` counts of the folder.

function du(folder: string): number {
  return Number(execFileSync('du', ['-s', '--block-size=1', folder], { encoding: 'utf8' }).split('\t')[0]);
}

describe('the disk usage of a store folder', () => {
  // `du --block-size` is GNU's.
  it.runIf(process.platform === 'linux')('puts each file in its part, counts a hard link once, and adds up to du exactly', () => {
    const storeDir = tempDir('hindsight-store-');
    const blobs = BlobStore.of(storeDir);
    blobs.makeFolder();
    for (let i = 0; i < 40; i++) blobs.put(Buffer.from(`blob ${i}\n`));
    blobs.put(seededBytes(3, 50_000));
    // A temp a killed write left beside its blob, and a restore's journal.
    const fanOut = join(blobsDirOf(storeDir), 'ab');
    mkdirSync(fanOut, { recursive: true });
    writeFileSync(join(fanOut, `${TEMP_PREFIX}0000`), seededBytes(4, 9_000));
    mkdirSync(restoreJournalDir(storeDir));
    writeFileSync(join(restoreJournalDir(storeDir), 'r1'), 'journal\n');
    writeFileSync(historyDbPath(storeDir), seededBytes(5, 20_000));
    writeFileSync(`${historyDbPath(storeDir)}-wal`, seededBytes(6, 5_000));
    writeFileSync(historyBackupPath(storeDir), seededBytes(7, 12_000));
    writeFileSync(join(storeDir, 'writer.lock'), '');
    // A second name for the backup: du pays for its blocks once.
    linkSync(historyBackupPath(storeDir), join(storeDir, 'backup-link'));

    const usage = storeDiskUsage(storeDir);
    expect(usage.totalBytes).toBe(du(storeDir));
    expect(usage.blobBytes + usage.indexBytes + usage.backupBytes + usage.tempBytes + usage.otherBytes).toBe(usage.totalBytes);
    // 41 blob files, none of them the temp.
    expect(usage.blobFiles).toBe(41);
    // Every small blob takes a block at least, far more than its 8 or 9 bytes.
    expect(usage.blobBytes).toBeGreaterThanOrEqual(40 * 512 + 50_000);
    expect(usage.tempBytes).toBeGreaterThanOrEqual(9_000);
    expect(usage.indexBytes).toBeGreaterThanOrEqual(25_000);
    expect(usage.backupBytes).toBeGreaterThanOrEqual(12_000);
    expect(usage.otherBytes).toBeLessThan(12_000);
  });

  it('answers nothing taken for a store folder not made yet', () => {
    const usage = storeDiskUsage(join(tempDir(), 'projects', 'none'));
    expect(usage).toEqual({ totalBytes: 0, blobBytes: 0, blobFiles: 0, indexBytes: 0, backupBytes: 0, tempBytes: 0, otherBytes: 0 });
  });
});
