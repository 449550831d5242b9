import { describe, expect, it } from 'vitest';
import { git, makeRepo, write } from '../git/gitFixture.js';
import { changeSnapshots, gitChanges, recorded, short } from './gitMoveHelpers.js';
import { notRacy, openWithBaseline } from './versionsHelpers.js';

// A process that opens a history whose git moves it never looked at (the first copy was another
// process's: `hindsight open`, then `hindsight watch --all`) starts just past the reflog's last
// move to the commit the latest snapshot recorded: the moves after it are each a snapshot titled
// by its commit, never one "HEAD move" guessed from the two ends.

describe('moves of HEAD after a history is opened by another process', () => {
  it('are told apart from the reflog, each with exactly its changes', async () => {
    const root = makeRepo({ 'a.txt': 'one\n' });
    const first = git(root, 'rev-parse', 'HEAD');
    for (const i of [1, 2]) {
      write(root, `f${i}.txt`, `file ${i}\n`);
      git(root, 'add', '-A');
      git(root, 'commit', '-qm', `Commit ${i}`);
    }
    git(root, 'checkout', '-q', first);
    const project = await openWithBaseline(root);
    // A new connection and git view: nothing of the reflog looked at in this process.
    await project.engine.closeProject(project.projectId);
    git(root, 'checkout', '-q', 'main~1');
    git(root, 'checkout', '-q', 'main');
    notRacy(project.engine.store(project.projectId));
    await project.engine.rescan(project.projectId);
    const reopened = { ...project, store: project.engine.store(project.projectId) };
    const snapshots = changeSnapshots(reopened);
    expect(snapshots.map((s) => s.label)).toEqual([
      `Checked out \`${short(root, 'main~1')}\` Commit 1`,
      `Checked out \`${short(root, 'main')}\` Commit 2, on main`,
    ]);
    expect(recorded(reopened, snapshots[0]!)).toEqual(gitChanges(root, first, 'main~1'));
    expect(recorded(reopened, snapshots[1]!)).toEqual(gitChanges(root, 'main~1', 'main'));
  });
});
