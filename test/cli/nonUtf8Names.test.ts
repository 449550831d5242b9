import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { FileEntry } from '../../shared/history.js';
import { bytesOfName } from '../../shared/fileNameBytes.js';
import { cliJson, runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';

// The CLI shows a name that is not UTF-8 with its bytes as \xNN, takes that form back as a path
// argument, and keeps the stored form in --json.

function bytePath(root: string, ...parts: (string | number[])[]): Buffer {
  return Buffer.concat([Buffer.from(`${root}/`), ...parts.map((p) => Buffer.from(p as never))]);
}

async function project() {
  const root = tempDir();
  writeFileSync(bytePath(root, [0x66, 0xff, 0x2e, 0x74]), 'f-ff\n');
  writeFileSync(bytePath(root, [0x66, 0xfe, 0x2e, 0x74]), 'f-fe\n');
  mkdirSync(bytePath(root, [0x64, 0xe9]));
  writeFileSync(bytePath(root, [0x64, 0xe9], '/inner.txt'), 'inner\n');
  const dataDir = tempDir('hindsight-data-');
  const opened = await runCli(['open', root, '--data-dir', dataDir]);
  expect(opened.stderr).toBe('');
  return { root, dataDir };
}

describe('names that are not UTF-8 on the command line', () => {
  it('files lists them escaped; --json keeps the stored form, which is the exact bytes', async () => {
    const { root, dataDir } = await project();
    const human = await runCli(['files', root, '--data-dir', dataDir]);
    expect(human.code).toBe(0);
    const paths = human.stdout
      .toString('utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(/\s+/).at(-1));
    expect(paths).toEqual(['d\\xE9/inner.txt', 'f\\xFE.t', 'f\\xFF.t']);
    const json = await cliJson<FileEntry[]>(['files', root, '--data-dir', dataDir]);
    expect(json.map((f) => Buffer.from(bytesOfName(f.path)).toString('hex'))).toEqual(['64e92f696e6e65722e747874', '66fe2e74', '66ff2e74']);
  });

  it('show and log take a path in the escaped form and answer for exactly that file', async () => {
    const { root, dataDir } = await project();
    const ff = await runCli(['show', root, 'f\\xFF.t', '--data-dir', dataDir]);
    expect([ff.code, ff.stdout.toString('utf8'), ff.stderr]).toEqual([0, 'f-ff\n', '']);
    const fe = await runCli(['show', root, 'f\\xFE.t', '--data-dir', dataDir]);
    expect(fe.stdout.toString('utf8')).toBe('f-fe\n');
    const inner = await runCli(['show', root, 'd\\xE9/inner.txt', '--data-dir', dataDir]);
    expect(inner.stdout.toString('utf8')).toBe('inner\n');
    const log = await runCli(['log', root, 'f\\xFF.t', '--data-dir', dataDir]);
    expect(log.code).toBe(0);
    expect(log.stdout.toString('utf8')).toContain('current');
    // A name that has no history is named in the message as it was typed.
    const missing = await runCli(['show', root, 'f\\xFD.t', '--data-dir', dataDir]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('f\\xFD.t');
    expect(missing.stderr).not.toMatch(/[\u{10FF00}-\u{10FFFF}]/u);
  });

  it('restore --version writes the file back under its exact bytes', async () => {
    const { root, dataDir } = await project();
    writeFileSync(bytePath(root, [0x66, 0xff, 0x2e, 0x74]), 'changed\n');
    const versions = await cliJson<{ versionId: number }[]>(['log', root, 'f\\xFF.t', '--data-dir', dataDir]);
    const restored = await runCli(['restore', root, 'f\\xFF.t', '--version', String(versions[0]!.versionId), '--data-dir', dataDir]);
    expect([restored.code, restored.stderr]).toEqual([0, '']);
    expect(readFileSync(bytePath(root, [0x66, 0xff, 0x2e, 0x74]), 'utf8')).toBe('f-ff\n');
  });
});
