import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HindsightError } from '../../../shared/errors.js';
import { GitOutputOverflow } from '../../../electron/history/git/gitErrors.js';
import { runGit as runGitWith, type RunGitOptions } from '../../../electron/history/git/runGit.js';
import { git, makeRepo, tempDir, write, GIT_ENV } from './gitFixture.js';

const MiB = 1024 * 1024;

async function failure(promise: Promise<unknown>): Promise<HindsightError> {
  try {
    await promise;
  } catch (error) {
    return error as HindsightError;
  }
  throw new Error('expected a failure');
}

describe.each(['socket', 'pipe'] as const)('runGit, output through a %s', (transport) => {
  const runGit = (args: string[], options: RunGitOptions) => runGitWith(args, { transport, ...options });

  it('runs git with arguments as an array and returns its output', async () => {
    const root = makeRepo({ 'a b.txt': 'hello\n' });
    const result = await runGit(['ls-files', '-z'], { cwd: root });
    expect(result.code).toBe(0);
    expect(result.stdout.toString()).toBe('a b.txt\0');
  });

  it("treats the expected exit codes as answers and others as GIT_FAILED with git's words", async () => {
    const root = makeRepo({ 'a.txt': 'a' });
    const answer = await runGit(['rev-parse', '--verify', '--quiet', 'no-such-ref'], { cwd: root, okCodes: [0, 1] });
    expect(answer.code).toBe(1);
    const error = await failure(runGit(['rev-parse', '--verify', 'no-such-ref'], { cwd: root }));
    expect(error.code).toBe('GIT_FAILED');
    expect(error.message).toContain('Needed a single revision');
    expect(error.details?.code).toBe(128);
  });

  it('says git was not found, never crashes, when git is not on PATH', async () => {
    const root = tempDir('nogit');
    const emptyBin = tempDir('bin');
    const error = await failure(runGit(['status'], { cwd: root, env: { PATH: emptyBin } }));
    expect(error).toBeInstanceOf(HindsightError);
    expect(error.code).toBe('GIT_NOT_FOUND');
    expect(error.message).toMatch(/git was not found/);
  });

  it('tells a missing working folder from a missing git', async () => {
    const error = await failure(runGit(['status'], { cwd: join(tempDir('gone'), 'missing') }));
    expect(error.code).toBe('FOLDER_NOT_FOUND');
  });

  it('kills git past the allowance and returns the partial output with GIT_OUTPUT_OVERFLOW', async () => {
    const root = makeRepo({});
    const big = Buffer.alloc(8 * MiB);
    for (let i = 0; i < big.length; i++) big[i] = 97 + (i % 26);
    write(root, 'big.txt', big);
    const oid = git(root, 'hash-object', '-w', 'big.txt');
    const allowance = 1 * MiB + 123;
    const error = await failure(runGit(['cat-file', 'blob', oid], { cwd: root, allowance }));
    expect(error).toBeInstanceOf(GitOutputOverflow);
    expect(error.code).toBe('GIT_OUTPUT_OVERFLOW');
    const partial = (error as GitOutputOverflow).partial;
    expect(partial.length).toBe(allowance);
    expect(partial.equals(big.subarray(0, allowance))).toBe(true);
    // git was stopped by a real signal, not left to finish writing.
    expect(error.details?.signal).toBe('SIGKILL');
    expect(error.details?.kept).toBe(allowance);
    // Details stay plain data: the partial output does not travel in them.
    expect(JSON.stringify(error.toJSON()).length).toBeLessThan(2000);
  });

  it('keeps a 16 MiB blob within 2.5x of its size in allocations, counted once', async () => {
    const root = makeRepo({});
    write(root, 'big.bin', Buffer.alloc(16 * MiB, 'x'));
    const oid = git(root, 'hash-object', '-w', 'big.bin');
    const result = await runGit(['cat-file', 'blob', oid], { cwd: root, allowance: 16 * MiB });
    expect(result.stdout.length).toBe(16 * MiB);
    expect(result.allocations.bytes).toBeLessThanOrEqual(2.5 * 16 * MiB);
  });

  it('costs at most 3 allocations for a short answer, and joins a large one from few chunks', async () => {
    const root = makeRepo({ 'a.txt': 'a' });
    const short = await runGit(['rev-parse', 'HEAD'], { cwd: root });
    expect(short.stdout.length).toBe(41);
    expect(short.allocations.count).toBeLessThanOrEqual(3);
    write(root, 'big.bin', Buffer.alloc(16 * MiB, 'y'));
    const oid = git(root, 'hash-object', '-w', 'big.bin');
    const big = await runGit(['cat-file', 'blob', oid], { cwd: root });
    expect(big.stdout.equals(Buffer.alloc(16 * MiB, 'y'))).toBe(true);
    expect(big.allocations.count).toBeLessThanOrEqual(45);
  });

  it('kills git and whatever it started at the timeout with GIT_TIMEOUT', async () => {
    const root = makeRepo({ 'a.txt': 'a' });
    const marker = join(root, 'alias-finished');
    // An alias that runs a shell: the shell and its sleep are in git's process group.
    const error = await failure(runGit(['-c', `alias.slow=!sleep 2 && touch ${marker}`, 'slow'], { cwd: root, timeoutMs: 300 }));
    expect(error.code).toBe('GIT_TIMEOUT');
    expect(error.details?.signal).toBe('SIGKILL');
    execFileSync('sleep', ['3']); // past the moment the alias would have finished
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses an argument with a NUL byte', async () => {
    const error = await failure(runGit(['show', 'HEAD:a\0b'], { cwd: tempDir('nul') }));
    expect(error.code).toBe('BAD_REQUEST');
  });

  it('runs in a folder reached through a symlink', async () => {
    const root = makeRepo({ 'a.txt': 'a' });
    const links = tempDir('links');
    mkdirSync(join(links, 'x'));
    symlinkSync(root, join(links, 'x', 'repo'));
    const result = await runGit(['rev-parse', '--show-toplevel'], { cwd: join(links, 'x', 'repo') });
    expect(result.stdout.toString().trim()).toBe(root);
    expect(GIT_ENV.GIT_CONFIG_NOSYSTEM).toBe('1');
  });
});
