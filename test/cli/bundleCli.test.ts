import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ExportResult, ImportResult } from '../../shared/contract/values.js';
import { CLI, cliJson, finished, runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { readTree, seededBytes, writeTree } from '../helpers/writeTree.js';

// export and import through the built CLI: a bundle piped from one data folder's export on
// stdout into another's import on stdin; an import killed before its end leaves no history
// visible, and the next import of the same bundle finishes it with the blobs already placed.

function blobCount(dataDir: string): number {
  const projects = join(dataDir, 'projects');
  if (!existsSync(projects)) return 0;
  let n = 0;
  for (const id of readdirSync(projects)) {
    const blobs = join(projects, id, 'blobs');
    if (!existsSync(blobs)) continue;
    for (const dir of readdirSync(blobs))
      if (/^[0-9a-f]{2}$/.test(dir)) n += readdirSync(join(blobs, dir)).filter((name) => /^[0-9a-f]{64}$/.test(name)).length;
  }
  return n;
}

describe('hindsight export and import', () => {
  it('pipes a history from one data folder to another, and a killed import is finished by the next', async () => {
    const root = tempDir();
    const dataA = tempDir('hindsight-data-');
    const dataB = tempDir('hindsight-data-');
    writeTree(root, { 'a.txt': 'one', 'big.bin': seededBytes(5, 3_000_000), 'run.sh': { data: 'x', mode: 0o700 } });
    await cliJson(['open', root, '--data-dir', dataA]);
    writeFileSync(join(root, 'a.txt'), 'two');
    await cliJson(['open', root, '--data-dir', dataA]);

    const exported = await runCli(['export', root, '--to', '-', '--json', '--data-dir', dataA]);
    expect(exported.code).toBe(0);
    const summary = JSON.parse(exported.stderr.trim().split('\n').at(-1)!) as ExportResult;
    expect(summary).toMatchObject({ to: null, snapshots: 2, blobs: 4, size: exported.stdout.length });
    const bundle = exported.stdout;
    expect(bundle.subarray(0, 19).toString()).toBe('hindsight-bundle 4\n');

    // Killed with every blob in place but before the end record: nothing visible.
    const moved = tempDir();
    const child = spawn(process.execPath, [CLI, 'import', '-', '--as', moved, '--data-dir', dataB], { stdio: ['pipe', 'pipe', 'pipe'] });
    const result = finished(child);
    child.stdin.on('error', () => {}); // the pipe breaks when the child is killed
    child.stdin.write(bundle.subarray(0, bundle.length - 60));
    while (blobCount(dataB) < 4) await sleep(20);
    child.kill('SIGKILL');
    expect((await result).signal).toBe('SIGKILL');
    const log = await runCli(['log', moved, '--data-dir', dataB]);
    expect(log.code).toBe(1);
    expect(log.stderr).toContain('no history yet');

    const file = join(tempDir(), 'h.hsb');
    writeFileSync(file, bundle);
    const imported = await cliJson<ImportResult>(['import', file, '--as', moved, '--data-dir', dataB]);
    expect(imported).toMatchObject({ root: moved, snapshots: 2, added: 2, blobsWritten: 0, blobsPresent: 4 });
    const again = await runCli(['import', file, '--as', moved, '--data-dir', dataB]);
    expect(again.stdout.toString()).toBe(
      `Imported 0 snapshots into the history of ${moved} (2 snapshots already there): 0 blobs written, 4 already stored (2.9 MiB).\n`,
    );

    const out = tempDir();
    await cliJson(['restore', moved, '--snapshot', '1', '--into', join(out, 'one'), '--data-dir', dataB]);
    expect(readTree(join(out, 'one'))['a.txt']).toEqual(expect.objectContaining({ type: 'file' }));
    await cliJson(['restore', root, '--snapshot', '1', '--into', join(out, 'ref'), '--data-dir', dataA]);
    expect(readTree(join(out, 'one'))).toEqual(readTree(join(out, 'ref')));

    const usage = await runCli(['export', root, '--data-dir', dataA]);
    expect(usage.code).toBe(2);
  });
});
