import { execFileSync } from 'node:child_process';
import { appendFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureMade, writeSeedShape } from '../fixtures/generateFixture.js';
import { commitAll } from '../fixtures/sourceTree.js';

// The checkout storm's repository: the seed shape with `files` files committed on branch A, and
// branch B where every one of them has different contents; A is checked out, so `git checkout B`
// rewrites all of them at once.

export const BRANCH_A = 'A';
export const BRANCH_B = 'B';

export function ensureStormFixture(parent: string, files: number): string {
  return ensureMade(parent, `storm-${files}-git`, (dir) => {
    writeSeedShape(dir, files - 5);
    commitAll(dir);
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', ...args], { cwd: dir, stdio: 'ignore' });
    git('branch', '-M', BRANCH_A);
    git('checkout', '--quiet', '-b', BRANCH_B);
    for (const path of filesIn(dir)) appendFileSync(join(dir, path), '// branch B\n');
    git('commit', '--quiet', '-am', 'every file changed');
    git('checkout', '--quiet', BRANCH_A);
  });
}

/** Every file of a folder (relative paths), leaving .git out. */
export function filesIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .filter((path) => !path.startsWith('.git/'));
}
