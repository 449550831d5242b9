import { describe, expect, it } from 'vitest';
import { sha256 } from '../../helpers/writeTree.js';
import { until } from '../../helpers/until.js';
import { git, makeRepo, write } from '../git/gitFixture.js';
import { changeSnapshots, recorded, short, subjectOf, watched } from './gitMoveHelpers.js';
import { openWithBaseline } from './versionsHelpers.js';

// Edits made and stashed within the quiet window were never heard as they stood: by the time the
// group is read, the stash has put the files back. The stash's commit holds them (its tree is the
// tracked files as they were on disk, its third parent the untracked ones with `-u`): they are a
// version in the history, just before the stash's own snapshot, which holds what it put back.

const QUIET_MS = 1500;

/** Every hash the history holds for a path, oldest first. */
function hashesOf(project: Awaited<ReturnType<typeof openWithBaseline>>, path: string): (string | null)[] {
  return project.engine
    .versions(project.projectId, path)
    .map((v) => v.hash)
    .reverse();
}

describe('a stash right after an edit', () => {
  it('keeps the edited bytes as a version, and the stash is its own snapshot putting them back', async () => {
    const project = await openWithBaseline(makeRepo({ 'a.txt': 'one\n', 'b.txt': 'b\n' }));
    const { root } = project;
    await watched(project, QUIET_MS);
    write(root, 'a.txt', 'edited, then stashed at once\n');
    git(root, 'stash', '-q');
    await until(() => changeSnapshots(project).some((s) => s.label === 'Stash'));
    await project.engine.unwatch(project.projectId);
    const snapshots = changeSnapshots(project);
    expect(snapshots.map((s) => s.label)).toEqual([null, 'Stash']);
    expect(recorded(project, snapshots[0]!)).toEqual({ 'a.txt': sha256('edited, then stashed at once\n') });
    expect(recorded(project, snapshots[1]!)).toEqual({ 'a.txt': sha256('one\n') });
    expect(hashesOf(project, 'a.txt')).toEqual([sha256('one\n'), sha256('edited, then stashed at once\n'), sha256('one\n')]);
  });

  it("on a detached HEAD (git writes no line in HEAD's reflog for it) as well", async () => {
    const project = await openWithBaseline(makeRepo({ 'a.txt': 'one\n', 'b.txt': 'b\n' }));
    const { root } = project;
    git(root, 'checkout', '-q', '--detach');
    await watched(project, QUIET_MS);
    write(root, 'b.txt', 'edited on a detached HEAD\n');
    git(root, 'stash', '-q');
    await until(() => changeSnapshots(project).some((s) => s.label === 'Stash'));
    await project.engine.unwatch(project.projectId);
    const snapshots = changeSnapshots(project);
    // Detaching HEAD is a move of its own, with no file changed.
    expect(snapshots.map((s) => [s.label, s.branch])).toEqual([
      [`Checked out \`${short(root, 'HEAD')}\` first`, null],
      [null, null],
      ['Stash', null],
    ]);
    expect(recorded(project, snapshots[0]!)).toEqual({});
    expect(recorded(project, snapshots[1]!)).toEqual({ 'b.txt': sha256('edited on a detached HEAD\n') });
    expect(recorded(project, snapshots[2]!)).toEqual({ 'b.txt': sha256('b\n') });
  });

  it('with -u and a checkout right after it: the edits and the untracked file are kept, then the stash, then the checkout', async () => {
    const root = makeRepo({ 'a.txt': 'one\n' });
    write(root, 'c.txt', 'on other\n');
    git(root, 'checkout', '-qb', 'other');
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'Other work');
    git(root, 'checkout', '-q', 'main');
    const project = await openWithBaseline(root);
    await watched(project, QUIET_MS);
    write(root, 'a.txt', 'edited\n');
    write(root, 'new.txt', 'untracked, stashed\n');
    git(root, 'stash', '-q', '-u');
    git(root, 'checkout', '-q', 'other');
    await until(() => changeSnapshots(project).some((s) => s.head === git(root, 'rev-parse', 'other')));
    await project.engine.unwatch(project.projectId);
    const snapshots = changeSnapshots(project);
    expect(snapshots.map((s) => s.label)).toEqual([null, 'Stash', `Checked out \`${short(root, 'other')}\` ${subjectOf(root, 'other')}, on other`]);
    expect(recorded(project, snapshots[0]!)).toEqual({ 'a.txt': sha256('edited\n'), 'new.txt': sha256('untracked, stashed\n') });
    expect(recorded(project, snapshots[1]!)).toEqual({ 'a.txt': sha256('one\n'), 'new.txt': null });
    expect(recorded(project, snapshots[2]!)).toEqual({ 'c.txt': sha256('on other\n') });
  });
});
