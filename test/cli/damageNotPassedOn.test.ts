import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectIdOf } from '../../electron/history/project/projectId.js';
import { blobPath, blobsDirOf, compressedBlobPath, projectStoreDir } from '../../electron/history/store/storeLayout.js';
import type { ExportResult } from '../../shared/contract/values.js';
import { logBytes } from '../helpers/logBytes.js';
import { CLI, cliJson, finished, runCli } from '../helpers/runCli.js';
import { blobFile, chunksOf } from '../helpers/storedBlob.js';
import { tempDir } from '../helpers/tempDirs.js';
import { sha256, writeTree } from '../helpers/writeTree.js';

// Damage is never passed on as good: `show` of a version with a damaged part writes nothing (not
// the chunks before the damaged one), through a pipe or into a file; `export` of a history holding
// damaged contents refuses (exit 1, no bundle), naming each file and version, whether the damage
// was known (verify found it) or is found while the bundle is written; `--skip-damaged` writes the
// rest, names what it left out, and an import takes it, those versions' bytes missing there.

const MiB = 1024 * 1024;
const LOG = logBytes(11, 6 * MiB);
/** Kept compressed (longer than 4 KiB, compresses well). */
const TEXT = 'a line of text that compresses well\n'.repeat(600);

/** The versions of `path` a log lists, by id. */
async function versionIds(root: string, path: string, data: string[]): Promise<number[]> {
  return (await cliJson<{ versionId: number }[]>(['log', root, path, ...data])).map((v) => v.versionId);
}

function flipByte(file: string, at: number): void {
  const bytes = readFileSync(file);
  bytes[at] = bytes[at]! ^ 0x01;
  writeFileSync(file, bytes);
}

async function recorded(spec: Parameters<typeof writeTree>[1]) {
  const root = tempDir();
  const dataDir = tempDir('hindsight-data-');
  writeTree(root, spec);
  await cliJson(['open', root, '--data-dir', dataDir]);
  return { root, dataDir, data: ['--data-dir', dataDir], blobsDir: blobsDirOf(projectStoreDir(dataDir, projectIdOf(root))) };
}

describe('damage is never passed on', () => {
  it('show of a chunked version whose last chunk is damaged writes no byte, to a pipe or a file, and exits 1 naming it', async () => {
    const { root, data, blobsDir } = await recorded({ 'app.log': LOG });
    const chunks = chunksOf(blobsDir, sha256(LOG));
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    const last = blobFile(blobsDir, chunks.at(-1)!);
    flipByte(last, statSync(last).size - 8);

    const piped = await runCli(['show', root, 'app.log', ...data]);
    expect(piped.code).toBe(1);
    expect(piped.stdout.length).toBe(0);
    expect(piped.stderr).toContain('The stored contents of app.log (version');
    expect(piped.stderr).toContain('are damaged');

    // As `show > file` leaves it: the file the shell made stays empty.
    const file = join(tempDir(), 'shown.log');
    const fd = openSync(file, 'w');
    try {
      const child = spawn(process.execPath, [CLI, 'show', root, 'app.log', ...data], { stdio: ['ignore', fd, 'pipe'] });
      expect((await finished(child)).code).toBe(1);
    } finally {
      closeSync(fd);
    }
    expect(statSync(file).size).toBe(0);
  });

  it('export refuses a history holding damaged contents verify reported, naming each file and version, and leaves no bundle', async () => {
    const { root, data, blobsDir } = await recorded({ 'text.txt': TEXT, 'small.txt': 'small\n', 'fine.txt': 'fine\n' });
    const compressed = compressedBlobPath(blobsDir, sha256(TEXT));
    expect(existsSync(compressed)).toBe(true);
    flipByte(compressed, statSync(compressed).size - 20);
    expect((await runCli(['verify', root, ...data])).code).toBe(1);
    const [textVersion] = await versionIds(root, 'text.txt', data);

    const target = tempDir();
    const refused = await runCli(['export', root, '--to', join(target, 'h.hsb'), ...data]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`text.txt (version ${textVersion})`);
    expect(refused.stderr).toContain('No bundle was written');
    expect(readdirSync(target)).toEqual([]);

    // A second damaged blob, not known yet: the refusal reads every blob and names both.
    flipByte(blobPath(blobsDir, sha256('small\n')), 0);
    const both = await runCli(['export', root, '--to', join(target, 'h.hsb'), ...data]);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain(`text.txt (version ${textVersion})`);
    expect(both.stderr).toContain(`small.txt (version ${(await versionIds(root, 'small.txt', data))[0]})`);
    expect(readdirSync(target)).toEqual([]);

    // --skip-damaged writes the rest and says what it left out; an import takes the bundle.
    const file = join(target, 'h.hsb');
    const skipped = await runCli(['export', root, '--to', file, '--skip-damaged', ...data]);
    expect(skipped.code).toBe(0);
    expect(skipped.stdout.toString()).toContain('Left out 2 damaged or missing blobs: ');
    const json = await cliJson<ExportResult>(['export', root, '--to', join(target, 'again.hsb'), '--skip-damaged', ...data]);
    expect(json.leftOut.map((d) => d.versions[0]!.path).sort()).toEqual(['small.txt', 'text.txt']);
    const other = tempDir();
    const otherData = ['--data-dir', tempDir('hindsight-data-')];
    const imported = await runCli(['import', file, '--as', other, ...otherData]);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect((await runCli(['show', other, 'fine.txt', ...otherData])).stdout.toString()).toBe('fine\n');
    const lost = await runCli(['show', other, 'text.txt', ...otherData]);
    expect(lost.code).toBe(1);
    expect(lost.stderr).toContain('missing');
    const verified = await runCli(['verify', other, '--json', ...otherData]);
    expect(verified.code).toBe(1);
    expect((JSON.parse(verified.stdout.toString()) as { missing: unknown[] }).missing).toHaveLength(2);
  });

  it('export stops at damage it finds while writing, names every damaged file, and leaves no bundle', async () => {
    const { root, data, blobsDir } = await recorded({ 'one.txt': 'one\n', 'two.txt': 'two\n', 'fine.txt': 'fine\n' });
    for (const text of ['one\n', 'two\n']) flipByte(blobPath(blobsDir, sha256(text)), 0);
    const target = tempDir();
    const refused = await runCli(['export', root, '--to', join(target, 'h.hsb'), ...data]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('one.txt (version');
    expect(refused.stderr).toContain('two.txt (version');
    expect(readdirSync(target)).toEqual([]);
  });
});
