import { describe, expect, it } from 'vitest';
import { commandFirst } from '../../electron/cli/commandLine.js';
import { runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { writeTree } from '../helpers/writeTree.js';

// --data-dir and --json are taken anywhere on the command line, before the command's name too.

describe('global flags anywhere on the command line', () => {
  it('moves the global flags typed before the command after it, and nothing else', () => {
    expect(commandFirst(['--json', 'log', '.'])).toEqual(['log', '.', '--json']);
    expect(commandFirst(['--data-dir', '/d', '--json', 'log', '.', 'a.txt'])).toEqual(['log', '.', 'a.txt', '--data-dir', '/d', '--json']);
    expect(commandFirst(['--data-dir=/d', 'projects'])).toEqual(['projects', '--data-dir=/d']);
    expect(commandFirst(['log', '--json', '.'])).toEqual(['log', '--json', '.']);
    // Not a global flag, or one without its value: left for the parser to name.
    expect(commandFirst(['--help'])).toEqual(['--help']);
    expect(commandFirst(['--data-dir'])).toEqual(['--data-dir']);
    expect(commandFirst(['--json'])).toEqual([]);
    expect(commandFirst([])).toEqual([]);
  });

  it('runs a command with --data-dir and --json before it, between its arguments, or after them', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'one\n' });
    const dataDir = tempDir('hindsight-data-');
    const opened = await runCli(['--data-dir', dataDir, '--json', 'open', root]);
    expect(opened.code, opened.stderr).toBe(0);
    expect(JSON.parse(opened.stdout.toString())).toMatchObject({ root: expect.any(String) });
    for (const args of [
      ['--json', `--data-dir=${dataDir}`, 'log', root, 'a.txt'],
      ['log', '--json', root, '--data-dir', dataDir, 'a.txt'],
      ['log', root, 'a.txt', '--data-dir', dataDir, '--json'],
    ]) {
      const run = await runCli(args);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
      expect(JSON.parse(run.stdout.toString()), args.join(' ')).toHaveLength(1);
    }
    const bare = await runCli(['--json']);
    expect([bare.code, bare.stdout.toString()]).toEqual([2, expect.stringContaining('Usage: hindsight <command>')]);
  });
});
