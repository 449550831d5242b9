import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoreStats } from '../../shared/contract/values.js';
import { sourceText } from '../history/compact/olderStore.js';
import { cliJson } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { seededBytes, writeTree, type TreeSpec } from '../helpers/writeTree.js';

// `hindsight stats` counts what the history takes on disk as `du` does (issue 43 item 6): every
// file under <data-dir>/projects/<id> in allocated blocks, the index with its WAL, its backup and
// the search index's pages, not the blobs' recorded sizes alone. Checked against real `du` run
// after the CLI closed the project, on a store holding raw, compressed and chunked blobs (and many
// small files, where a block is far more than the bytes) and a built search index.

function history(): TreeSpec {
  const spec: TreeSpec = {
    // Longer than 4 KiB and compressible: kept compressed.
    'src/a.ts': sourceText(1),
    'src/b.ts': sourceText(2),
    // Incompressible: kept raw.
    'noise.bin': seededBytes(7, 20_000),
    // Above 1 MiB: kept as chunks and their list.
    'large.bin': seededBytes(9, 3 * 1024 * 1024),
  };
  // Small files, each a block on disk whatever its length.
  for (let i = 0; i < 300; i++) spec[`notes/n${i}.txt`] = `note ${i}\n`;
  return spec;
}

/** `du -s --block-size=1` of a folder: its allocated bytes. */
function du(folder: string): number {
  return Number(execFileSync('du', ['-s', '--block-size=1', folder], { encoding: 'utf8' }).split('\t')[0]);
}

describe('hindsight stats on disk', () => {
  // `du --block-size` is GNU's; the blocks a file takes are counted the same on every system.
  it.runIf(process.platform === 'linux')('adds up to what du counts of the store folder, within 2%, and says what each part takes', async () => {
    const root = tempDir();
    const dataDir = tempDir('hindsight-data-');
    writeTree(root, history());
    const data = ['--data-dir', dataDir];
    await cliJson(['open', root, ...data]);
    await cliJson(['index', root, ...data]);
    const stats = await cliJson<StoreStats>(['stats', root, ...data]);
    const onDisk = du(join(dataDir, 'projects', stats.projectId));

    const { disk, density } = stats;
    expect(Math.abs(disk.totalBytes - onDisk)).toBeLessThanOrEqual(onDisk * 0.02);
    expect(disk.blobBytes + disk.indexBytes + disk.backupBytes + disk.tempBytes + disk.otherBytes).toBe(disk.totalBytes);
    // The store held every form: compressed, raw, and a chunked file's chunks and list (files no blob row names).
    expect(density.blobsCompressed).toBeGreaterThan(0);
    expect(density.blobsRaw).toBeGreaterThan(0);
    expect(disk.blobFiles).toBeGreaterThan(stats.blobs);
    expect(stats.searchIndex.done).toBe(true);
    expect(disk.searchIndexBytes).toBeGreaterThan(0);
    expect(disk.indexBytes).toBeGreaterThan(disk.searchIndexBytes);
    expect(disk.backupBytes).toBeGreaterThan(0);
    // The blobs' recorded sizes alone fall well short of the disk: a block per small file, the index.
    expect(density.storedBytes).toBeLessThan(onDisk * 0.9);
  });
});
