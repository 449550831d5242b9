import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRepository } from '../../../electron/history/git/findRepository.js';
import { HeadReader } from '../../../electron/history/git/readHead.js';
import { currentBranch } from '../../../electron/history/git/currentBranch.js';
import { revParseHead } from '../../../electron/history/git/revParseHead.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { git, makeRepo, tempDir, write } from './gitFixture.js';

// HEAD read from git's files must say what git itself says, in every layout a folder can have.

async function fromGit(cwd: string): Promise<{ branch: string | null; head: string | null }> {
  return { branch: (await currentBranch(cwd)) ?? null, head: (await revParseHead(cwd)) ?? null };
}

function fromFiles(folder: string): { branch: string | null; head: string | null } | undefined {
  const repo = findRepository(folder);
  return repo && new HeadReader(repo).read();
}

describe('findRepository and HeadReader', () => {
  it('finds the repository of a folder and of a subfolder, as git does', () => {
    const root = makeRepo({ 'sub/deeper/a.txt': 'a' });
    expect(findRepository(root)).toEqual({ workTree: root, gitDir: join(root, '.git'), commonDir: join(root, '.git'), prefix: '' });
    const sub = findRepository(join(root, 'sub', 'deeper'));
    expect(sub?.workTree).toBe(root);
    expect(sub?.prefix).toBe(git(join(root, 'sub', 'deeper'), 'rev-parse', '--show-prefix'));
  });

  it('finds no repository in a plain folder', () => {
    expect(findRepository(tempDir('plain'))).toBeUndefined();
  });

  it('reads branch and commit as git reports them: loose, packed, detached, unborn', async () => {
    const root = makeRepo({ 'a.txt': 'a' });
    expect(fromFiles(root)).toEqual(await fromGit(root));
    expect(fromFiles(root)?.branch).toBe('main');

    git(root, 'pack-refs', '--all'); // the loose ref is gone: packed-refs holds it
    expect(fromFiles(root)).toEqual(await fromGit(root));

    git(root, 'checkout', '-q', '--detach');
    expect(fromFiles(root)).toEqual({ branch: null, head: git(root, 'rev-parse', 'HEAD') });

    git(root, 'checkout', '-q', '--orphan', 'fresh');
    expect(fromFiles(root)).toEqual({ branch: 'fresh', head: null });
    expect(await fromGit(root)).toEqual({ branch: 'fresh', head: null });
  });

  it('reads a linked worktree: its own HEAD, the shared refs', async () => {
    const root = makeRepo({ 'a.txt': 'a' });
    const elsewhere = join(tempDir('wt'), 'topic');
    git(root, 'worktree', 'add', '-q', '-b', 'topic', elsewhere);
    write(elsewhere, 'b.txt', 'b');
    git(elsewhere, 'add', 'b.txt');
    git(elsewhere, 'commit', '-q', '-m', 'on topic');
    const repo = findRepository(elsewhere)!;
    expect(repo.workTree).toBe(elsewhere);
    expect(repo.commonDir).toBe(join(root, '.git'));
    expect(fromFiles(elsewhere)).toEqual(await fromGit(elsewhere));
    expect(fromFiles(elsewhere)?.branch).toBe('topic');
    expect(fromFiles(root)).toEqual(await fromGit(root));
  });

  it('reads the files again only when a stat says they changed', () => {
    const root = makeRepo({ 'a.txt': 'a' });
    const reader = new HeadReader(findRepository(root)!);
    resetTrace();
    const first = reader.read();
    for (let i = 0; i < 100; i++) expect(reader.read()).toEqual(first);
    expect(counter('git.headReads')).toBe(1);

    write(root, 'b.txt', 'b');
    git(root, 'add', 'b.txt');
    git(root, 'commit', '-q', '-m', 'second'); // the branch's ref file is replaced
    expect(reader.read()?.head).toBe(git(root, 'rev-parse', 'HEAD'));
    git(root, 'checkout', '-q', '-b', 'other'); // HEAD is replaced
    expect(reader.read()?.branch).toBe('other');
    for (let i = 0; i < 100; i++) reader.read();
    expect(counter('git.headReads')).toBeLessThanOrEqual(4);
    expect(counter('git.spawns')).toBe(0);
  });

  it('stops at a file-system boundary only when the device changes', () => {
    const root = makeRepo({});
    mkdirSync(join(root, 'nested', 'plain'), { recursive: true });
    expect(findRepository(join(root, 'nested', 'plain'))?.workTree).toBe(root);
  });
});
