import { describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { readdirSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { projectIdOf } from '../../../electron/history/project/projectId.js';
import { cliJson, finished, runCli, startCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { readTree, writeTree, type TreeSpec } from '../../helpers/writeTree.js';

// A first copy killed between two batches of its baseline's rows (SIGKILL at the fault point
// after a batch is written) leaves no baseline a reader can see: no snapshot, version, stat row
// or blob row, `log` and `files` find no history, only staged rows no reader looks at. The next
// open clears them, copies again and publishes the whole baseline: every file, nothing staged left.

const BATCH = 50;

function stoppedAt(child: ChildProcess, point: string): Promise<void> {
  return new Promise((resolve) => child.stderr!.on('data', (chunk: Buffer) => chunk.toString().includes(`stopped at ${point}`) && resolve()));
}

function rows(file: string): Record<string, number> {
  const db = new Database(file, { readonly: true });
  try {
    const n = (table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    return {
      snapshots: n('snapshots'),
      versions: n('versions'),
      stats: n('stat_cache'),
      blobs: n('blobs'),
      chunks: n('blob_chunks'),
      staged: n('staged_files'),
    };
  } finally {
    db.close();
  }
}

describe('a first copy killed between two batches of its rows', () => {
  it('leaves nothing a reader sees, and the next open copies every file again', async () => {
    const root = realpathSync(tempDir());
    const spec: TreeSpec = { 'run.sh': { data: '#!/bin/sh\necho hi\n', mode: 0o755 } };
    for (let i = 0; i < 400; i++) spec[`s/d${i % 9}/f${i}.txt`] = `file ${i}\n`;
    writeTree(root, spec);
    const dataDir = tempDir('hindsight-data-');
    const storeDir = join(dataDir, 'projects', projectIdOf(root));
    const db = join(storeDir, 'history.db');
    const env = { HINDSIGHT_BASELINE_BATCH: String(BATCH), HINDSIGHT_COPY_CONCURRENCY: '1' };

    const child = startCli(['open', root, '--data-dir', dataDir, '--json'], { ...env, HINDSIGHT_STOP_AT: 'baseline-batch-staged' });
    const done = finished(child);
    await stoppedAt(child, 'baseline-batch-staged');
    // Stopped right after its first batch: written, and visible to no reader.
    expect(rows(db)).toEqual({ snapshots: 0, versions: 0, stats: 0, blobs: 0, chunks: 0, staged: BATCH });
    const log = await runCli(['log', root, '--data-dir', dataDir, '--json']);
    const files = await runCli(['files', root, '--data-dir', dataDir, '--json']);
    for (const reader of [log, files]) {
      expect(reader.stdout.length).toBe(0);
      expect(reader.stderr).toContain('has no history yet');
    }
    child.kill('SIGKILL');
    expect((await done).signal).toBe('SIGKILL');
    expect(rows(db)).toMatchObject({ snapshots: 0, versions: 0, staged: BATCH });
    // A file staged by the killed copy is deleted before the next open: it must not come back.
    const staged = new Database(db, { readonly: true });
    const gone = (staged.prepare("SELECT path FROM staged_files WHERE path LIKE 's/%' LIMIT 1").get() as { path: string }).path;
    staged.close();
    rmSync(join(root, gone));

    const reopened = await cliJson<{ files: number; firstCopy: boolean }>(['open', root, '--data-dir', dataDir], env);
    expect(reopened).toMatchObject({ files: 400, firstCopy: true });
    expect(rows(db)).toEqual({ snapshots: 1, versions: 400, stats: 400, blobs: 400, chunks: 0, staged: 0 });
    const listed = await cliJson<{ path: string; hash: string; mode: number }[]>(['files', root, '--data-dir', dataDir]);
    const disk = readTree(root);
    expect(Object.fromEntries(listed.map((f) => [f.path, { hash: f.hash, mode: f.mode }]))).toEqual(
      Object.fromEntries(Object.entries(disk).map(([path, f]) => [path, { hash: f.hash, mode: f.mode }])),
    );
    expect(readdirSync(join(storeDir, 'blobs')).filter((name) => name.startsWith('incoming-'))).toEqual([]);
    expect((await cliJson<{ ok: boolean }>(['verify', root, '--data-dir', dataDir])).ok).toBe(true);
  });
});
