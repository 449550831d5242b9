import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { historyDbPath } from '../../../electron/history/store/storeLayout.js';
import { git, tempDir } from '../git/gitFixture.js';
import { notRacy, repoWithBaseline, type Project } from './versionsHelpers.js';

// The snapshot a git operation wrote is titled as people know what happened: the commit by its
// short id and subject, the branch; stash, reset --hard, rebase, merge and pull by name. The
// checkpoint git's move left before it records no file, so it folds into the row it equals.
// Real git in temp folders, the real engine.

const HASH40 = /[0-9a-f]{40}/;

async function recorded(project: Project): Promise<void> {
  notRacy(project.store);
  await project.engine.rescan(project.projectId);
}

function short(root: string, rev = 'HEAD'): string {
  return git(root, 'rev-parse', '--short=7', rev);
}

function latest(project: Project) {
  return project.engine.log(project.projectId).at(-1)!;
}

describe('git operations named in the history', () => {
  it('a checkout of a branch names the commit by short id and subject, and the branch', async () => {
    const project = await repoWithBaseline({ 'a.txt': 'one\n' });
    const { root, engine, projectId } = project;
    git(root, 'checkout', '-qb', 'topic');
    writeFileSync(join(root, 'a.txt'), 'topic\n');
    git(root, 'commit', '-qam', 'Teach the router about blueprints');
    await recorded(project);
    git(root, 'checkout', '-q', 'main');
    await recorded(project);
    git(root, 'checkout', '-q', 'topic');
    await recorded(project);
    expect(latest(project)).toMatchObject({ kind: 'change', label: `Checked out \`${short(root)}\` Teach the router about blueprints, on topic` });
    // The version list says the same of the file git wrote.
    expect(engine.versions(projectId, 'a.txt').at(-1)!.label).toBe(latest(project).label);
    for (const s of engine.log(projectId)) expect(s.label ?? '').not.toMatch(HASH40);
  });

  it('a checkout of a commit by its id (detached) never titles it with 40 digits', async () => {
    const project = await repoWithBaseline({ 'a.txt': 'one\n' });
    const { root, engine, projectId } = project;
    const first = git(root, 'rev-parse', 'HEAD');
    writeFileSync(join(root, 'a.txt'), 'two\n');
    git(root, 'commit', '-qam', 'Second commit');
    await recorded(project);
    git(root, 'checkout', '-q', first);
    await recorded(project);
    const log = engine.log(projectId);
    expect(log.at(-1)!.label).toBe(`Checked out \`${first.slice(0, 7)}\` first`);
    const checkpoint = log.find((s) => s.kind === 'checkpoint')!;
    expect(checkpoint.label).toBe(`Before checkout to ${first.slice(0, 7)} (${short(root, 'main')})`);
    for (const s of log) expect(s.label ?? '').not.toMatch(HASH40);
  });

  it('reset --hard, stash and stash pop are named as such', async () => {
    const project = await repoWithBaseline({ 'a.txt': 'one\n', 'b.txt': 'b\n' });
    const { root } = project;
    writeFileSync(join(root, 'a.txt'), 'two\n');
    git(root, 'commit', '-qam', 'Second commit');
    await recorded(project);
    writeFileSync(join(root, 'b.txt'), 'work in progress\n');
    await recorded(project);
    git(root, 'stash', '-q');
    await recorded(project);
    expect(latest(project).label).toBe('Stash');
    git(root, 'stash', 'pop', '-q');
    await recorded(project);
    expect(latest(project).label).toBe('Stash pop');
    git(root, 'reset', '-q', '--hard', 'HEAD~1');
    await recorded(project);
    expect(latest(project)).toMatchObject({ label: `Reset --hard to \`${short(root)}\` first`, origin: { gitOperation: 'reset', gitWhen: 'after' } });
  });

  it('a merge and a rebase are named with the branch and the commit', async () => {
    const project = await repoWithBaseline({ 'a.txt': 'one\n', 'b.txt': 'b\n' });
    const { root } = project;
    git(root, 'checkout', '-qb', 'topic');
    writeFileSync(join(root, 'b.txt'), 'topic b\n');
    git(root, 'commit', '-qam', 'Topic work');
    git(root, 'checkout', '-q', 'main');
    await recorded(project);
    git(root, 'merge', '-q', '--ff-only', 'topic');
    await recorded(project);
    expect(latest(project).label).toBe('Merge branch topic, on main');

    git(root, 'checkout', '-qb', 'later', 'HEAD~1');
    writeFileSync(join(root, 'a.txt'), 'later a\n');
    git(root, 'commit', '-qam', 'Later work');
    await recorded(project);
    git(root, 'rebase', '-q', 'main');
    await recorded(project);
    // Its start (HEAD onto main) and its step (Later work applied again) are a snapshot each.
    const changes = project.engine.log(project.projectId).filter((s) => s.kind === 'change');
    expect(changes.slice(-2).map((s) => s.label)).toEqual([
      `Rebase onto \`${short(root, 'main')}\` Topic work`,
      `Rebase: applied \`${short(root)}\` Later work`,
    ]);
  });

  it('a pull is named as such', async () => {
    const project = await repoWithBaseline({ 'a.txt': 'one\n' });
    const { root } = project;
    const upstream = tempDir('upstream');
    git(upstream, 'clone', '-q', root, '.');
    writeFileSync(join(upstream, 'a.txt'), 'from upstream\n');
    git(upstream, 'commit', '-qam', 'Upstream change');
    git(root, 'remote', 'add', 'up', upstream);
    git(root, 'pull', '-q', '--ff-only', 'up', 'main');
    await recorded(project);
    expect(latest(project).label).toBe(`Pull to \`${short(root)}\` Upstream change, on main`);
  });

  it('folds the checkpoint before a checkout into the snapshot it equals, and keeps it in the history', async () => {
    const project = await repoWithBaseline({ 'a.txt': 'one\n' });
    const { root, engine, projectId } = project;
    git(root, 'checkout', '-qb', 'topic');
    writeFileSync(join(root, 'a.txt'), 'topic\n');
    git(root, 'commit', '-qam', 'topic');
    await recorded(project);
    const before = latest(project);
    git(root, 'checkout', '-q', 'main');
    await recorded(project);
    const log = engine.log(projectId);
    const checkpoint = log.find((s) => s.kind === 'checkpoint')!;
    expect(checkpoint.files).toBe(0);
    expect(checkpoint.foldedInto).toBe(before.snapshotId);
    // Every other row stands for itself; the fold holds for an empty restore target too.
    expect(log.filter((s) => s.foldedInto !== undefined)).toEqual([checkpoint]);
    expect(engine.snapshotSummary(projectId, checkpoint.snapshotId).files).toBe(engine.snapshotSummary(projectId, before.snapshotId).files);
  });

  it("shows an older store's whole commit ids shortened", async () => {
    const project = await repoWithBaseline({ 'a.txt': 'one\n' });
    const { root, engine, projectId } = project;
    const first = git(root, 'rev-parse', 'HEAD');
    writeFileSync(join(root, 'a.txt'), 'two\n');
    git(root, 'commit', '-qam', 'two');
    await recorded(project);
    git(root, 'checkout', '-q', first);
    await recorded(project);
    const db = new Database(historyDbPath(engine.store(projectId).storeDir));
    db.prepare("UPDATE snapshots SET label = ? WHERE git_when = 'after'").run(`After checkout to ${first}`);
    db.close();
    expect(latest(project).label).toBe(`After checkout to ${first.slice(0, 7)}`);
    expect(engine.versions(projectId, 'a.txt').at(-1)!.label).toBe(`After checkout to ${first.slice(0, 7)}`);
  });
});
