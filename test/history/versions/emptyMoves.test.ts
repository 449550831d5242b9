import { describe, expect, it } from 'vitest';
import { until } from '../../helpers/until.js';
import { git, makeRepo, write } from '../git/gitFixture.js';
import { changeSnapshots, gitChanges, pause, recorded, short, subjectOf, watched } from './gitMoveHelpers.js';
import { openWithBaseline, type Project } from './versionsHelpers.js';

// A move of HEAD that changes no file (a checkout of a commit whose tree is the one before's, a
// commit of edits already recorded, a reset to a commit with the same tree) is still a snapshot of
// its own, titled by its commit, with no versions: the watcher hears git's folder, not a file. As
// the last move (nothing after it to carry it) and in a sequence faster than the quiet window.

const QUIET_MS = 1500;

/** main: `first`, then `Change 1` (a.txt), `Nothing` (an empty commit: the same tree), `Change 2` (b.txt). */
function repoWithEmptyCommit(): { root: string; commits: string[] } {
  const root = makeRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
  const commits = [git(root, 'rev-parse', 'HEAD')];
  write(root, 'a.txt', 'a, changed\n');
  git(root, 'commit', '-qam', 'Change 1');
  commits.push(git(root, 'rev-parse', 'HEAD'));
  git(root, 'commit', '-q', '--allow-empty', '-m', 'Nothing');
  commits.push(git(root, 'rev-parse', 'HEAD'));
  write(root, 'b.txt', 'b, changed\n');
  git(root, 'commit', '-qam', 'Change 2');
  commits.push(git(root, 'rev-parse', 'HEAD'));
  git(root, 'checkout', '-q', commits[0]!);
  return { root, commits };
}

function checkedOut(root: string, commit: string, branch = ''): string {
  return `Checked out \`${short(root, commit)}\` ${subjectOf(root, commit)}${branch}`;
}

async function changesUntil(project: Project, count: number): Promise<ReturnType<typeof changeSnapshots>> {
  await until(() => changeSnapshots(project).length >= count);
  await project.engine.unwatch(project.projectId);
  return changeSnapshots(project);
}

describe('a move of HEAD that changes no file', () => {
  it.each([
    ['each after the quiet window (the last one heard from git alone)', QUIET_MS * 2],
    ['back to back (recorded from the reflog by the group after it)', 0],
  ])('a checkout to a commit with the same tree is a snapshot with no versions, %s', async (_, spacing) => {
    const { root, commits } = repoWithEmptyCommit();
    const project = await openWithBaseline(root);
    await watched(project, QUIET_MS);
    for (const commit of commits.slice(1)) {
      git(root, 'checkout', '-q', commit);
      await pause(spacing);
    }
    const snapshots = await changesUntil(project, 3);
    expect(snapshots.map((s) => s.label)).toEqual(commits.slice(1).map((c) => checkedOut(root, c)));
    expect(snapshots.map((s) => s.head)).toEqual(commits.slice(1));
    expect(snapshots.map((s) => recorded(project, s))).toEqual([gitChanges(root, commits[0]!, commits[1]!), {}, gitChanges(root, commits[2]!, commits[3]!)]);
  });

  it('the last move, changing no file, is a snapshot without any later event', async () => {
    const { root, commits } = repoWithEmptyCommit();
    git(root, 'checkout', '-q', commits[1]!);
    const project = await openWithBaseline(root);
    await watched(project, QUIET_MS);
    git(root, 'checkout', '-q', commits[2]!);
    const [snapshot] = await changesUntil(project, 1);
    expect(snapshot).toMatchObject({ label: checkedOut(root, commits[2]!), head: commits[2] });
    expect(recorded(project, snapshot!)).toEqual({});
  });

  it('a commit of edits already recorded is one snapshot of its own, named by it, with no versions; two commits back to back are two', async () => {
    const project = await openWithBaseline(makeRepo({ 'a.txt': 'one\n' }));
    const { root } = project;
    await watched(project, QUIET_MS);
    write(root, 'a.txt', 'two\n');
    await until(() => changeSnapshots(project).length >= 1);
    git(root, 'commit', '-qam', 'Second');
    await until(() => changeSnapshots(project).length >= 2);
    git(root, 'commit', '-q', '--allow-empty', '-m', 'Third');
    git(root, 'commit', '-q', '--allow-empty', '-m', 'Fourth');
    const [edit, second, third, fourth, ...more] = await changesUntil(project, 4);
    expect(edit!.label).toBeNull();
    expect(Object.keys(recorded(project, edit!))).toEqual(['a.txt']);
    expect([second, third, fourth].map((s) => s!.label)).toEqual(
      ['HEAD~2', 'HEAD~1', 'HEAD'].map((c) => `Committed \`${short(root, c)}\` ${subjectOf(root, c)}, on main`),
    );
    expect([second, third, fourth].map((s) => recorded(project, s!))).toEqual([{}, {}, {}]);
    expect(more).toEqual([]);
  });

  it('edits committed, then left by a checkout, all within the quiet window, are the versions of the commit, before the checkout', async () => {
    const project = await openWithBaseline(makeRepo({ 'a.txt': 'one\n', 'b.txt': 'b\n' }));
    const { root } = project;
    const first = git(root, 'rev-parse', 'HEAD');
    await watched(project, QUIET_MS);
    write(root, 'a.txt', 'two\n');
    git(root, 'commit', '-qam', 'Second');
    const second = git(root, 'rev-parse', 'HEAD');
    git(root, 'checkout', '-q', first);
    const [commit, checkout, ...more] = await changesUntil(project, 2);
    expect(commit!.label).toBe(`Committed \`${short(root, second)}\` Second, on main`);
    expect(recorded(project, commit!)).toEqual(gitChanges(root, first, second));
    expect(checkout!.label).toBe(checkedOut(root, first));
    expect(recorded(project, checkout!)).toEqual(gitChanges(root, second, first));
    expect(more).toEqual([]);
  });

  it('a switch to a new branch is a snapshot on it; a checkout of the branch HEAD is on is no move', async () => {
    const project = await openWithBaseline(makeRepo({ 'a.txt': 'one\n' }));
    const { root } = project;
    await watched(project, QUIET_MS);
    git(root, 'checkout', '-q', 'main');
    git(root, 'switch', '-qc', 'topic');
    const snapshots = await changesUntil(project, 1);
    expect(snapshots.map((s) => [s.label, s.branch])).toEqual([[checkedOut(root, 'HEAD', ', on topic'), 'topic']]);
    expect(recorded(project, snapshots[0]!)).toEqual({});
  });

  it('on a detached HEAD, a checkout of a commit and a reset --hard to another are each a snapshot', async () => {
    const { root, commits } = repoWithEmptyCommit();
    const project = await openWithBaseline(root);
    await watched(project, QUIET_MS);
    git(root, 'checkout', '-q', commits[1]!);
    await until(() => changeSnapshots(project).length >= 1);
    git(root, 'reset', '-q', '--hard', commits[3]!);
    await until(() => changeSnapshots(project).length >= 2);
    // To a commit with the same tree as the one HEAD is on: no file changes.
    git(root, 'reset', '-q', '--hard', commits[2]!);
    await until(() => changeSnapshots(project).length >= 3);
    git(root, 'reset', '-q', '--hard', commits[1]!);
    const snapshots = await changesUntil(project, 4);
    const resetTo = (c: string) => `Reset --hard to \`${short(root, c)}\` ${subjectOf(root, c)}`;
    expect(snapshots.map((s) => s.label)).toEqual([checkedOut(root, commits[1]!), resetTo(commits[3]!), resetTo(commits[2]!), resetTo(commits[1]!)]);
    expect(snapshots.map((s) => s.branch)).toEqual([null, null, null, null]);
    expect(snapshots.map((s) => recorded(project, s))).toEqual([
      gitChanges(root, commits[0]!, commits[1]!),
      gitChanges(root, commits[1]!, commits[3]!),
      gitChanges(root, commits[3]!, commits[2]!),
      {},
    ]);
  });
});
