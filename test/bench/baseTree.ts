import { execFileSync } from 'node:child_process';
import { rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// A worktree of another commit beside this checkout, for a benchmark that runs the same work with
// that commit's build: checked out detached into a temporary folder, given this checkout's
// node_modules through a symlink (no npm ci), removed with `remove()`.

export interface BaseTree {
  dir: string;
  sha: string;
  remove(): void;
}

export function addBaseTree(ref: string, head = resolve('.')): BaseTree {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: head, encoding: 'utf8' }).trim();
  const sha = git('rev-parse', `${ref}^{commit}`);
  const dir = join(tmpdir(), `hindsight-bench-base-${sha.slice(0, 12)}-${process.pid}`);
  git('worktree', 'add', '--detach', '--force', dir, sha);
  symlinkSync(join(head, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return {
    dir,
    sha,
    remove: () => {
      rmSync(join(dir, 'node_modules'), { force: true });
      git('worktree', 'remove', '--force', dir);
    },
  };
}
