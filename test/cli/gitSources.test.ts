import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResponseOf } from '../../shared/contract.js';
import { git, makeRepo } from '../history/git/gitFixture.js';
import { cliJson, runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';

// `show` and `restore` take --version HEAD or INDEX: git's committed and staged versions of a
// file, read from the real repository by the real CLI process.

describe('the CLI and git versions', () => {
  it('shows and restores HEAD and INDEX, and lists where each version came from', async () => {
    const root = makeRepo({ 'a.txt': 'committed\n' });
    const dataDir = tempDir('hindsight-data-');
    const run = (...args: string[]) => runCli([...args, '--data-dir', dataDir]);
    await cliJson(['open', root, '--data-dir', dataDir]);
    writeFileSync(join(root, 'a.txt'), 'staged\n');
    git(root, 'add', 'a.txt');
    writeFileSync(join(root, 'a.txt'), 'working\n');

    expect((await run('show', root, 'a.txt', '--version', 'HEAD')).stdout.toString()).toBe('committed\n');
    expect((await run('show', root, 'a.txt', '--version', 'INDEX')).stdout.toString()).toBe('staged\n');
    const bad = await run('show', root, 'a.txt', '--version', 'head~1');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--version takes a version id \(the RESTORE WITH column.*vN.*, HEAD or INDEX; not "head~1"/);

    const restored = await cliJson<ResponseOf<'restoreFromGit'>>(['restore', root, 'a.txt', '--version', 'INDEX', '--data-dir', dataDir]);
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('staged\n');
    expect(restored.fromGit).toBe('INDEX');
    const human = await run('restore', root, 'a.txt', '--version', 'HEAD');
    expect(human.stdout.toString()).toMatch(
      /^Restored a\.txt to git's HEAD version, now version 4; undo with --version \d+\.\nUndo with: hindsight restore \S+ --undo \d+\n$/,
    );
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('committed\n');

    const log = (await run('log', root, 'a.txt')).stdout.toString().trimEnd().split('\n');
    expect(log.slice(1).map((l) => l.replace(/^.*\s{2}/, ''))).toEqual(['First copy', 'Edited', 'Restored from git INDEX', 'Restored from git HEAD']);
    expect(log.at(-1)).toMatch(/^\s*\d+\s+current\s/);

    const untracked = await run('show', root, 'nope.txt', '--version', 'HEAD');
    expect(untracked.code).not.toBe(0);
    expect(untracked.stderr).toContain('nope.txt is not committed at HEAD');
  });
});
