import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { cliJson, finished, startCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { blobBytes } from '../../helpers/storedBlob.js';
import { readTree, seededBytes, sha256, writeTree, type TreeSpec } from '../../helpers/writeTree.js';
import { projectIdOf } from '../../../electron/history/project/projectId.js';
import { realpathSync } from 'node:fs';
import { until } from '../../helpers/until.js';

function allBlobs(blobsDir: string): { name: string; path: string }[] {
  return readdirSync(blobsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(join(blobsDir, d.name)).map((name) => ({ name, path: join(blobsDir, d.name, name) })));
}

describe('a first copy killed midway', () => {
  it('loses nothing when the process dies midway: the next open finishes it', async () => {
    const root = tempDir();
    const spec: TreeSpec = {};
    for (let i = 0; i < 3000; i++) spec[`s/d${i % 40}/f${i}.sh`] = seededBytes(i + 1, 300 + (i % 4000));
    spec['big.bin'] = seededBytes(99, 2 * 1024 * 1024);
    spec['run.sh'] = { data: '#!/bin/sh\necho hi\n', mode: 0o755 };
    writeTree(root, spec);
    const dataDir = tempDir('hindsight-data-');
    const storeDir = join(dataDir, 'projects', projectIdOf(realpathSync(root)));
    const blobsDir = join(storeDir, 'blobs');

    const child = startCli(['open', root, '--data-dir', dataDir, '--json'], { HINDSIGHT_COPY_CONCURRENCY: '1' });
    const done = finished(child);
    await until(() => existsSync(blobsDir) && readdirSync(blobsDir).length > 30, { what: 'more than 30 blob folders', everyMs: 2 });
    child.kill('SIGKILL');
    const killed = await done;
    expect(killed.signal).toBe('SIGKILL');

    // No baseline was written, and a half-written temp lies in the store as a crash would leave it.
    const db = new Database(join(storeDir, 'history.db'), { readonly: true });
    expect(db.prepare('SELECT COUNT(*) AS n FROM snapshots').get()).toEqual({ n: 0 });
    db.close();
    const stored = allBlobs(blobsDir).length;
    expect(stored).toBeGreaterThan(0);
    expect(stored).toBeLessThan(3002);
    writeFileSync(join(blobsDir, `incoming-${randomUUID()}`), seededBytes(5, 1234));

    const reopened = await cliJson<{ files: number; firstCopy: boolean }>(['open', root, '--data-dir', dataDir]);
    expect(reopened).toMatchObject({ files: 3002, firstCopy: true });

    const files = await cliJson<{ path: string; hash: string; mode: number }[]>(['files', root, '--data-dir', dataDir]);
    const disk = readTree(root);
    expect(Object.fromEntries(files.map((f) => [f.path, { hash: f.hash, mode: f.mode }]))).toEqual(
      Object.fromEntries(Object.entries(disk).map(([path, f]) => [path, { hash: f.hash, mode: f.mode }])),
    );
    for (const blob of allBlobs(blobsDir)) {
      const hash = blob.name.slice(0, 64);
      expect(sha256(blobBytes(blobsDir, hash)), blob.path).toBe(hash);
    }
    expect(readdirSync(blobsDir).filter((name) => name.startsWith('incoming-'))).toEqual([]);
    expect((await cliJson<{ ok: boolean }>(['verify', root, '--data-dir', dataDir])).ok).toBe(true);
  });
});
