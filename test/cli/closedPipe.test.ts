import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, cliJson, finished, startCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { writeTree } from '../helpers/writeTree.js';

// `hindsight files . | head`: the reader goes away after a few lines and the pipe closes under
// the command. It must end quietly, with the exit code it would have had, never a stack trace.
// The listings here are several times a pipe's buffer (64 KiB), so the command is still writing
// when the reader leaves.

async function bigProject(): Promise<{ root: string; dataDir: string }> {
  const root = tempDir();
  const spec: Record<string, string> = {};
  const long = 'a-rather-long-folder-name-so-that-each-listed-path-takes-room'.repeat(2);
  for (let i = 0; i < 800; i++) spec[`${long}/${long}-${i}.txt`] = `${i}\n`;
  writeTree(root, spec);
  const dataDir = tempDir('hindsight-data-');
  await cliJson(['open', root, '--data-dir', dataDir]);
  return { root, dataDir };
}

/** Runs `hindsight ARGS | head -n 2` in bash with pipefail; returns what head printed, the CLI's stderr and its exit code. */
async function throughHead(args: string[]): Promise<{ head: string; stderr: string; code: number }> {
  const quoted = args.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const script = `set -o pipefail; '${process.execPath}' '${CLI}' ${quoted} 2>"$ERR" | head -n 2; echo "exit=\${PIPESTATUS[0]}" >&2`;
  const errFile = join(tempDir(), 'stderr.txt');
  const child = spawn('bash', ['-c', script], { env: { ...process.env, ERR: errFile }, stdio: ['ignore', 'pipe', 'pipe'] });
  const result = await finished(child);
  const exit = /exit=(\d+)/.exec(result.stderr);
  return { head: result.stdout.toString('utf8'), stderr: readFileSync(errFile, 'utf8'), code: Number(exit?.[1]) };
}

describe('a reader that stops early', () => {
  it('hindsight files . | head ends quietly with exit code 0, human and --json alike', async () => {
    const { root, dataDir } = await bigProject();
    const human = await throughHead(['files', root, '--data-dir', dataDir]);
    expect(human.head.split('\n')[0]).toMatch(/^MODE\s+SIZE\s+HASH\s+PATH$/);
    expect(human.head.split('\n')).toHaveLength(3);
    expect([human.code, human.stderr]).toEqual([0, '']);

    const json = await throughHead(['files', root, '--data-dir', dataDir, '--json']);
    expect(json.head.startsWith('[{"path":')).toBe(true);
    expect([json.code, json.stderr]).toEqual([0, '']);

    const log = await throughHead(['log', root, '--data-dir', dataDir]);
    expect([log.code, log.stderr]).toEqual([0, '']);
  });

  it('stops a command whose stdout is closed after the first chunk, without a trace on stderr', async () => {
    const { root, dataDir } = await bigProject();
    for (const extra of [[], ['--json']]) {
      const child = startCli(['files', root, '--data-dir', dataDir, ...extra]);
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const [first] = (await once(child.stdout!, 'data')) as [Buffer];
      expect(first.length).toBeGreaterThan(0);
      child.stdout!.destroy();
      const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
      expect({ code, signal, stderr }).toEqual({ code: 0, signal: null, stderr: '' });
    }
  });

  it('show: the bytes of a big version into a closed pipe end quietly too', async () => {
    const root = tempDir();
    writeTree(root, { 'big.txt': 'line of text\n'.repeat(100_000) });
    const dataDir = tempDir('hindsight-data-');
    await cliJson(['open', root, '--data-dir', dataDir]);
    const shown = await throughHead(['show', root, 'big.txt', '--data-dir', dataDir]);
    expect(shown.head).toBe('line of text\nline of text\n');
    expect([shown.code, shown.stderr]).toEqual([0, '']);
  });
});
