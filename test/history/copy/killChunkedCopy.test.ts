import { describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { projectIdOf } from '../../../electron/history/project/projectId.js';
import { chunkListPath } from '../../../electron/history/store/storeLayout.js';
import { blobBytes, chunksOf } from '../../helpers/storedBlob.js';
import { logBytes } from '../../helpers/logBytes.js';
import { cliJson, finished, startCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { readTree, sha256, writeTree } from '../../helpers/writeTree.js';

// A first copy killed at each new step of filing a chunked large file (its chunks placed and its
// list not yet; its list placed and the index not yet) leaves a store the next open finishes:
// every file recorded with its exact bytes, the list's chunks in the index, verify clean.

function stoppedAt(child: ChildProcess, point: string): Promise<void> {
  return new Promise((resolve) => child.stderr!.on('data', (chunk: Buffer) => chunk.toString().includes(`stopped at ${point}`) && resolve()));
}

describe('a first copy killed while filing a chunked file', () => {
  for (const point of ['chunks-placed', 'list-placed']) {
    it(`at ${point} is finished by the next open`, async () => {
      const root = realpathSync(tempDir());
      const log = logBytes(7, 6 * 1024 * 1024);
      writeTree(root, { 'app.log': { data: log, mode: 0o640 }, 'a.txt': 'a\n', 'src/b.ts': 'export const b = 1;\n' });
      const dataDir = tempDir('hindsight-data-');
      const storeDir = join(dataDir, 'projects', projectIdOf(root));
      const blobsDir = join(storeDir, 'blobs');

      const child = startCli(['open', root, '--data-dir', dataDir, '--json'], { HINDSIGHT_STOP_AT: point });
      const done = finished(child);
      await stoppedAt(child, point);
      const hash = sha256(log);
      expect(existsSync(chunkListPath(blobsDir, hash))).toBe(point === 'list-placed');
      child.kill('SIGKILL');
      expect((await done).signal).toBe('SIGKILL');
      const killed = new Database(join(storeDir, 'history.db'), { readonly: true });
      expect(killed.prepare('SELECT COUNT(*) AS n FROM snapshots').get()).toEqual({ n: 0 });
      killed.close();

      const reopened = await cliJson<{ files: number; firstCopy: boolean }>(['open', root, '--data-dir', dataDir]);
      expect(reopened).toMatchObject({ files: 3, firstCopy: true });
      const files = await cliJson<{ path: string; hash: string; mode: number }[]>(['files', root, '--data-dir', dataDir]);
      const disk = readTree(root);
      expect(Object.fromEntries(files.map((f) => [f.path, { hash: f.hash, mode: f.mode }]))).toEqual(
        Object.fromEntries(Object.entries(disk).map(([path, f]) => [path, { hash: f.hash, mode: f.mode }])),
      );
      expect(blobBytes(blobsDir, hash).equals(log)).toBe(true);
      const db = new Database(join(storeDir, 'history.db'), { readonly: true });
      const rows = db.prepare('SELECT chunk FROM blob_chunks WHERE list = ? ORDER BY seq').all(hash) as { chunk: string }[];
      db.close();
      expect(rows.map((r) => r.chunk)).toEqual(chunksOf(blobsDir, hash));
      expect(readdirSync(blobsDir).filter((name) => name.startsWith('incoming-'))).toEqual([]);
      expect((await cliJson<{ ok: boolean }>(['verify', root, '--data-dir', dataDir])).ok).toBe(true);
    });
  }

  it('killed at list-placed while recording a change, is finished by the next open: the list on disk gets its chunk rows', async () => {
    const root = realpathSync(tempDir());
    writeTree(root, { 'a.txt': 'a\n' });
    const dataDir = tempDir('hindsight-data-');
    const storeDir = join(dataDir, 'projects', projectIdOf(root));
    const blobsDir = join(storeDir, 'blobs');
    await cliJson(['open', root, '--data-dir', dataDir]);
    const log = logBytes(8, 6 * 1024 * 1024);
    writeTree(root, { 'app.log': log });
    const hash = sha256(log);

    const child = startCli(['open', root, '--data-dir', dataDir, '--json'], { HINDSIGHT_STOP_AT: 'list-placed' });
    const done = finished(child);
    await stoppedAt(child, 'list-placed');
    expect(existsSync(chunkListPath(blobsDir, hash))).toBe(true);
    child.kill('SIGKILL');
    await done;

    await cliJson(['open', root, '--data-dir', dataDir]);
    const db = new Database(join(storeDir, 'history.db'), { readonly: true });
    const rows = db.prepare('SELECT chunk FROM blob_chunks WHERE list = ? ORDER BY seq').all(hash) as { chunk: string }[];
    db.close();
    expect(rows.map((r) => r.chunk)).toEqual(chunksOf(blobsDir, hash));
    expect(rows.length).toBeGreaterThan(1);
    expect((await cliJson<{ ok: boolean }>(['verify', root, '--data-dir', dataDir])).ok).toBe(true);
  });
});
