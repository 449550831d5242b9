import { onTestFinished, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { GitContext } from '../../../electron/history/git/gitContext.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { CopyPool } from '../../../electron/history/store/copyPool.js';
import { CopySlots } from '../../../electron/history/store/copySlots.js';
import { counter } from '../../../electron/history/trace.js';
import { git, makeRepo, tempDir, write } from './gitFixture.js';

// The tracked-file list is listed by git once per state of git's index in a process: rescans and
// watch starts with the index unchanged reuse it; a `git add` (a new index) lists it again.
// Counted as git.trackedLists (one per `git ls-files` parsed) and git.spawns.

function engineWithPool(): { engine: HistoryEngine; pool: CopyPool } {
  const engine = new HistoryEngine(tempDir('data'));
  const pool = new CopyPool(new CopySlots(2));
  onTestFinished(async () => {
    engine.close();
    await pool.close();
  });
  return { engine, pool };
}

describe('the tracked-file list', () => {
  it('is listed once while the index is unchanged, again after git add, and a file tracked despite .gitignore is then recorded', async () => {
    const root = makeRepo({ '.gitignore': '*.env\n', 'src/a.ts': 'a', 'src/deep/b.ts': 'b' });
    write(root, 'local.env', 'SECRET=1');
    const { engine, pool } = engineWithPool();

    const lists = counter('git.trackedLists');
    const { projectId } = await engine.open(root, { pool });
    expect(counter('git.trackedLists') - lists).toBe(1);
    const spawns = counter('git.spawns');
    await engine.open(root, { pool });
    await engine.open(root, { pool });
    expect(counter('git.trackedLists') - lists).toBe(1);
    expect(counter('git.spawns') - spawns).toBe(0);
    expect(engine.files(projectId).map((f) => f.path)).not.toContain('local.env');

    git(root, 'add', '-f', 'local.env');
    await engine.open(root, { pool });
    expect(counter('git.trackedLists') - lists).toBe(2);
    expect(engine.files(projectId).map((f) => f.path)).toContain('local.env');
  });

  it('follows the index of a linked worktree, not the main one', async () => {
    const main = makeRepo({ '.gitignore': '*.env\n', 'a.txt': 'a' });
    const linked = join(tempDir('worktrees'), 'linked');
    git(main, 'worktree', 'add', '-q', '-b', 'side', linked);
    write(linked, 'side.env', 'x');
    const context = new GitContext(linked);

    const lists = counter('git.trackedLists');
    expect([...(await context.tracked())!.files].sort()).toEqual(['.gitignore', 'a.txt']);
    // The main tree's index changing leaves the linked tree's list as it was: nothing to list again.
    write(main, 'main.env', 'y');
    git(main, 'add', '-f', 'main.env');
    expect([...(await context.tracked())!.files].sort()).toEqual(['.gitignore', 'a.txt']);
    expect(counter('git.trackedLists') - lists).toBe(1);

    git(linked, 'add', '-f', 'side.env');
    expect([...(await context.tracked())!.files].sort()).toEqual(['.gitignore', 'a.txt', 'side.env']);
    expect(counter('git.trackedLists') - lists).toBe(2);
  });

  it('lists every folder on the way to a tracked file', async () => {
    const root = makeRepo({ 'a/b/c/d.txt': 'd', 'a/b/e.txt': 'e', 'a/f/g.txt': 'g', 'h.txt': 'h' });
    const tracked = await new GitContext(root).tracked();
    expect([...tracked!.folders].sort()).toEqual(['a', 'a/b', 'a/b/c', 'a/f']);
  });
});
