import { execFileSync } from 'node:child_process';
import { writeFileSync, mkdirSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir as removedAfterTest } from '../../helpers/tempDirs.js';

// A real git repository in a temp folder, driven by the real git binary.

export const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

export function tempDir(name: string): string {
  return realpathSync(removedAfterTest(`hindsight-${name}-`));
}

export function write(root: string, path: string, text: string | Buffer, mode?: number): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text, mode === undefined ? undefined : { mode });
}

/** A repository on branch main with the given files in its first commit. */
export function makeRepo(files: Record<string, string>): string {
  const root = tempDir('repo');
  git(root, 'init', '-q', '-b', 'main');
  for (const [path, text] of Object.entries(files)) write(root, path, text);
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '--allow-empty', '-m', 'first');
  return root;
}
