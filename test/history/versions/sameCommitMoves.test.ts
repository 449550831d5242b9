import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../helpers/writeTree.js';
import { until } from '../../helpers/until.js';
import { GIT_ENV, git, write } from '../git/gitFixture.js';
import { changeSnapshots, gitChanges, pause, recorded, repoWithCommits, short, subjectOf, watched } from './gitMoveHelpers.js';
import { openWithBaseline, type Project } from './versionsHelpers.js';

// A move of HEAD that leaves it where it was (`git stash`, `git reset --hard HEAD`) still writes a
// line in HEAD's reflog and still rewrites files. In a sequence faster than the quiet window, one in
// the middle is gone from the disk by the time its group is written: it must still be a snapshot of
// its own, titled as git names it, holding exactly the files it put back (at the commit's bytes),
// not folded into the checkout after it. Each edit it puts back is recorded first (waited for), so
// that git's `diff --name-only HEAD` just before it says what it will put back.

const QUIET_MS = 1500;

/** The files `git diff --name-only ARGS` lists, each with the SHA-256 of its bytes at `commit`: what a stash or reset --hard puts back. */
function putBack(root: string, commit: string, ...args: string[]): Record<string, string | null> {
  const paths = git(root, 'diff', '--name-only', ...args)
    .split('\n')
    .filter(Boolean);
  return Object.fromEntries(paths.map((path) => [path, sha256(execFileSync('git', ['show', `${commit}:${path}`], { cwd: root, env: GIT_ENV }))]));
}

/** Writes `text` over a file and waits until the history holds it. */
async function recordedEdit(project: Project, path: string, text: string): Promise<void> {
  write(project.root, path, text);
  await until(() => project.store.index.versions.latestVersionOf(path)?.hash === sha256(text));
}

describe('a move that keeps HEAD where it was, in a fast sequence of moves', () => {
  it.each([
    ['a fifth of the quiet window apart', QUIET_MS / 5],
    ['back to back (the stash and the reset are gone from the disk when their groups are written)', 0],
  ])('a stash and a reset --hard HEAD between checkouts %s are each a snapshot of their own', async (_, spacing) => {
    const { root, commits } = repoWithCommits(3);
    // On a branch: git leaves no line in HEAD's reflog for a stash or a reset that keeps a detached HEAD where it was.
    for (const i of [1, 2, 3]) git(root, 'branch', `b${i}`, commits[i]!);
    const project = await openWithBaseline(root);
    await watched(project, QUIET_MS);
    await recordedEdit(project, 'keep.txt', 'kept, edited\n');
    const before = changeSnapshots(project).length;

    // The edit rides along the checkout (no commit touches keep.txt); the stash puts it back.
    git(root, 'checkout', '-q', 'b1');
    await pause(spacing);
    const stashed = putBack(root, commits[1]!, 'HEAD');
    git(root, 'stash', '-q');
    await pause(spacing);
    git(root, 'checkout', '-q', 'b2');
    await until(() => changeSnapshots(project).some((s) => s.head === commits[2]));
    await recordedEdit(project, 'notes.txt', 'notes, edited\n');
    const reset = putBack(root, commits[2]!, 'HEAD');
    git(root, 'reset', '-q', '--hard', 'HEAD');
    await pause(spacing);
    git(root, 'checkout', '-q', 'b3');

    await until(() => changeSnapshots(project).some((s) => s.head === commits[3]));
    await project.engine.unwatch(project.projectId);
    const snapshots = changeSnapshots(project).slice(before);
    const checkedOut = (i: number) => `Checked out \`${short(root, commits[i]!)}\` ${subjectOf(root, commits[i]!)}, on b${i}`;
    expect(snapshots.map((s) => s.label)).toEqual([
      checkedOut(1),
      'Stash',
      checkedOut(2),
      null,
      `Reset --hard to \`${short(root, commits[2]!)}\` ${subjectOf(root, commits[2]!)}`,
      checkedOut(3),
    ]);
    expect(stashed).toEqual({ 'keep.txt': sha256('kept\n') });
    expect(reset).toEqual({ 'notes.txt': sha256('notes\n') });
    const edit = { 'notes.txt': sha256('notes, edited\n') };
    const steps = [
      gitChanges(root, commits[0]!, commits[1]!),
      stashed,
      gitChanges(root, commits[1]!, commits[2]!),
      edit,
      reset,
      gitChanges(root, commits[2]!, commits[3]!),
    ];
    snapshots.forEach((snapshot, i) => expect(recorded(project, snapshot), `step ${i + 1}: ${snapshot.label}`).toEqual(steps[i]));
    expect(snapshots.map((s) => s.head)).toEqual([commits[1], commits[1], commits[2], commits[2], commits[2], commits[3]]);
  });
});
