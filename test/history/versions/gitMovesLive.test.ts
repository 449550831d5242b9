import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, makeRepo, write } from '../git/gitFixture.js';
import { changeSnapshots, gitChanges, pause, recorded, repoWithCommits, short, subjectOf, watched } from './gitMoveHelpers.js';
import { openWithBaseline } from './versionsHelpers.js';
import { until } from '../../helpers/until.js';

// One snapshot per git operation, with a live recorder and real git: every move of HEAD (a
// checkout, a commit, a reset, a stash, each step of a rebase) is its own snapshot, titled by its
// commit, holding exactly what git says the move changed, however fast the moves come (a fraction
// of the quiet window apart: the trees of all but the last are no longer on disk when their group
// is written, and come from git's objects).

const QUIET_MS = 1500;

describe('one snapshot per git operation, recorded live', () => {
  it.each([
    ['a fifth of the quiet window apart', QUIET_MS / 5],
    ['back to back, faster than a group is written (the trees come from git objects)', 0],
  ])('N checkouts %s give N snapshots, each titled by its commit with exactly its changes', async (_, spacing) => {
    const n = 6;
    const { root, commits } = repoWithCommits(n);
    const project = await openWithBaseline(root);
    await watched(project, QUIET_MS);
    for (let i = 1; i <= n; i++) {
      git(root, 'checkout', '-q', commits[i]!);
      if (spacing > 0) await pause(spacing);
    }
    await until(() => changeSnapshots(project).length >= n);
    await project.engine.unwatch(project.projectId);
    const snapshots = changeSnapshots(project);
    expect(snapshots.map((s) => s.label)).toEqual(commits.slice(1).map((c) => `Checked out \`${short(root, c)}\` ${subjectOf(root, c)}`));
    for (let i = 1; i <= n; i++) {
      expect(recorded(project, snapshots[i - 1]!), `checkout ${i}`).toEqual(gitChanges(root, commits[i - 1]!, commits[i]!));
      expect(snapshots[i - 1]!.head).toBe(commits[i]);
    }
  });

  it('a commit ends the group: the edits it committed are titled by it, an edit after it is a group of its own', async () => {
    const project = await openWithBaseline(makeRepo({ 'a.txt': 'one\n', 'b.txt': 'b\n' }));
    const { root } = project;
    await watched(project, QUIET_MS);
    writeFileSync(join(root, 'a.txt'), 'two\n');
    git(root, 'commit', '-qam', 'Second commit');
    writeFileSync(join(root, 'b.txt'), 'after the commit\n');
    await until(() => changeSnapshots(project).length >= 2);
    await project.engine.unwatch(project.projectId);
    const [committed, after] = changeSnapshots(project);
    expect(committed!.label).toBe(`Committed \`${short(root, 'HEAD')}\` Second commit, on main`);
    expect(Object.keys(recorded(project, committed!))).toEqual(['a.txt']);
    expect(after!.label).toBeNull();
    expect(Object.keys(recorded(project, after!))).toEqual(['b.txt']);
  });

  it('an edit made just before a checkout is a snapshot of its own, at the commit it was made on', async () => {
    const root = makeRepo({ 'a.txt': 'one\n', 'b.txt': 'b\n' });
    const main = git(root, 'rev-parse', 'HEAD');
    git(root, 'checkout', '-qb', 'other');
    write(root, 'b.txt', 'b on other\n');
    git(root, 'commit', '-qam', 'Other work');
    git(root, 'checkout', '-q', 'main');
    const project = await openWithBaseline(root);
    await watched(project, QUIET_MS);
    writeFileSync(join(root, 'a.txt'), 'edited on main, carried over\n');
    git(root, 'checkout', '-q', 'other');
    await until(() => changeSnapshots(project).length >= 2);
    await project.engine.unwatch(project.projectId);
    const [edit, checkout] = changeSnapshots(project);
    expect(edit).toMatchObject({ label: null, head: main, branch: 'main' });
    expect(Object.keys(recorded(project, edit!))).toEqual(['a.txt']);
    expect(checkout).toMatchObject({ label: `Checked out \`${short(root, 'other')}\` Other work, on other`, head: git(root, 'rev-parse', 'other') });
    expect(recorded(project, checkout!)).toEqual(gitChanges(root, main, 'other'));
  });

  it('a reset --hard and a checkout right after it are two snapshots; a stash is one of its own', async () => {
    const project = await openWithBaseline(makeRepo({ 'a.txt': 'one\n', 'b.txt': 'b\n' }));
    const { root } = project;
    const first = git(root, 'rev-parse', 'HEAD');
    write(root, 'a.txt', 'two\n');
    write(root, 'c.txt', 'new in second\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'Second commit');
    const second = git(root, 'rev-parse', 'HEAD');
    git(root, 'branch', 'keep-second');
    await project.engine.rescan(project.projectId);
    await watched(project, QUIET_MS);

    git(root, 'reset', '-q', '--hard', first);
    git(root, 'checkout', '-q', 'keep-second');
    await until(() => changeSnapshots(project).length >= 3);
    const [, reset, checkout] = changeSnapshots(project);
    expect(reset!.label).toBe(`Reset --hard to \`${short(root, first)}\` first`);
    expect(recorded(project, reset!)).toEqual(gitChanges(root, second, first));
    expect(checkout!.label).toBe(`Checked out \`${short(root, second)}\` Second commit, on keep-second`);
    expect(recorded(project, checkout!)).toEqual(gitChanges(root, first, second));

    writeFileSync(join(root, 'b.txt'), 'work in progress\n');
    await until(() => changeSnapshots(project).length >= 4);
    git(root, 'stash', '-q');
    await until(() => changeSnapshots(project).length >= 5);
    await project.engine.unwatch(project.projectId);
    const stash = changeSnapshots(project)[4]!;
    expect(stash.label).toBe('Stash');
    expect(Object.keys(recorded(project, stash))).toEqual(['b.txt']);
  });

  it('a rebase of 3 commits is recorded step by step: its start, then one snapshot per commit it applied', async () => {
    const root = makeRepo({ 'a.txt': 'one\n' });
    git(root, 'checkout', '-qb', 'topic');
    for (const i of [1, 2, 3]) {
      write(root, `t${i}.txt`, `topic ${i}\n`);
      git(root, 'add', '-A');
      git(root, 'commit', '-qm', `Topic ${i}`);
    }
    git(root, 'checkout', '-q', 'main');
    write(root, 'm.txt', 'on main\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'Main moves on');
    git(root, 'checkout', '-q', 'topic');
    const project = await openWithBaseline(root);
    await watched(project, QUIET_MS);
    const logBefore = git(root, 'reflog', '--format=%H').split('\n').length;
    git(root, 'rebase', '-q', 'main');
    await until(() => changeSnapshots(project).length >= 4);
    await project.engine.unwatch(project.projectId);
    // The reflog's lines since the rebase began, oldest first: start, three picks, finish.
    const steps = git(root, 'reflog', '--format=%H %gs')
      .split('\n')
      .slice(0, -logBefore)
      .reverse()
      .map((line) => line.split(' '));
    const snapshots = changeSnapshots(project);
    expect(snapshots.map((s) => s.label)).toEqual([
      `Rebase onto \`${short(root, 'main')}\` Main moves on`,
      ...[1, 2, 3].map((i) => `Rebase: applied \`${short(root, `topic~${3 - i}`)}\` Topic ${i}`),
    ]);
    const heads = [git(root, 'rev-parse', 'HEAD@{5}'), ...steps.slice(0, 4).map(([oid]) => oid!)];
    for (let i = 0; i < 4; i++) expect(recorded(project, snapshots[i]!), `step ${i}`).toEqual(gitChanges(root, heads[i]!, heads[i + 1]!));
  });
});
