import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkpointLabel } from '../../../electron/history/versions/headCheckpoint.js';
import { readTree } from '../../helpers/writeTree.js';
import { git } from '../git/gitFixture.js';
import { notRacy, repoWithBaseline } from './versionsHelpers.js';

// When git moves HEAD over uncommitted work (reset --hard, checkout -f), the history holds a
// labelled checkpoint of the state just before, ahead of the snapshot that records git's rewrite,
// and restoring the project to it brings the lost edits back exactly.

const openedRepo = repoWithBaseline;

describe('a checkpoint when git moves HEAD', () => {
  it('records the commit and branch on every snapshot', async () => {
    const { root, engine, store, projectId } = await openedRepo({ 'a.txt': 'one\n' });
    const first = git(root, 'rev-parse', 'HEAD');
    expect(engine.log(projectId)[0]).toMatchObject({ kind: 'baseline', branch: 'main', head: first });
    writeFileSync(join(root, 'a.txt'), 'two\n');
    git(root, 'commit', '-qam', 'two');
    git(root, 'checkout', '-qb', 'topic');
    notRacy(store);
    await engine.rescan(projectId);
    const latest = engine.log(projectId).at(-1)!;
    expect(latest).toMatchObject({ kind: 'change', branch: 'topic', head: git(root, 'rev-parse', 'HEAD') });
    // A plain commit moves HEAD without touching a file: no checkpoint for it.
    expect(engine.log(projectId).filter((s) => s.kind === 'checkpoint')).toEqual([]);
  });

  it('after a reset --hard over uncommitted edits, the checkpoint restores them exactly', async () => {
    const { root, engine, store, projectId } = await openedRepo({ 'a.txt': 'one\n', 'src/b.sh': 'echo b\n', 'c.txt': 'same\n' });
    const head = git(root, 'rev-parse', 'HEAD');
    writeFileSync(join(root, 'a.txt'), 'uncommitted edit of a\n');
    writeFileSync(join(root, 'src/b.sh'), 'echo edited b\n');
    chmodSync(join(root, 'src/b.sh'), 0o755);
    await engine.rescan(projectId); // the watcher or an open records the edits
    const edited = readTree(root);

    git(root, 'reset', '-q', '--hard'); // HEAD stays where it is: only the reflog tells
    notRacy(store);
    const rescan = await engine.rescan(projectId);
    expect(readTree(root)['a.txt']).not.toEqual(edited['a.txt']);

    const log = engine.log(projectId);
    const checkpoint = log.find((s) => s.kind === 'checkpoint')!;
    expect(checkpoint).toMatchObject({ label: `Before HEAD moved: reset (${head.slice(0, 7)})`, branch: 'main', head });
    expect(checkpoint.snapshotId).toBeLessThan(rescan.snapshotId!);
    expect(log.at(-1)!.snapshotId).toBe(rescan.snapshotId);

    await engine.restoreSnapshot(projectId, checkpoint.snapshotId);
    expect(readTree(root)).toEqual(edited);
  });

  it('after a checkout -f to another branch over uncommitted edits, the checkpoint restores them exactly', async () => {
    const { root, engine, store, projectId } = await openedRepo({ 'a.txt': 'one\n', 'b.txt': 'b\n' });
    const main = git(root, 'rev-parse', 'HEAD');
    git(root, 'checkout', '-qb', 'topic');
    writeFileSync(join(root, 'a.txt'), 'topic version\n');
    writeFileSync(join(root, 'new-on-topic.txt'), 'only on topic\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'topic');
    git(root, 'checkout', '-q', 'main');
    notRacy(store);
    await engine.rescan(projectId);
    writeFileSync(join(root, 'a.txt'), 'uncommitted on main\n');
    writeFileSync(join(root, 'b.txt'), 'also uncommitted\n');
    notRacy(store);
    await engine.rescan(projectId);
    const edited = readTree(root);

    git(root, 'checkout', '-qf', 'topic');
    notRacy(store);
    const rescan = await engine.rescan(projectId);
    expect(readTree(root)['a.txt']).not.toEqual(edited['a.txt']);

    const checkpoints = engine.log(projectId).filter((s) => s.kind === 'checkpoint');
    const checkpoint = checkpoints.at(-1)!;
    expect(checkpoint).toMatchObject({ label: `Before checkout to topic (${main.slice(0, 7)})`, branch: 'main', head: main });
    expect(checkpoint.snapshotId).toBeLessThan(rescan.snapshotId!);
    expect(engine.log(projectId).at(-1)).toMatchObject({ branch: 'topic', head: git(root, 'rev-parse', 'HEAD') });

    await engine.restoreSnapshot(projectId, checkpoint.snapshotId, { deleteAdded: true });
    expect(readTree(root)).toEqual(edited);
  });

  it('live: with the watcher recording, a reset --hard leaves a checkpoint that restores the edits', async () => {
    const { root, engine, projectId } = await openedRepo({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
    const groups: (() => void)[] = [];
    const nextGroup = () => new Promise<void>((resolve) => groups.push(resolve));
    await engine.watch(projectId, {
      quietMs: 300,
      maxGroupMs: 3000,
      onGroup: (group) => {
        if (group.snapshotId !== undefined) groups.shift()?.();
      },
    });
    let recorded = nextGroup();
    writeFileSync(join(root, 'a.txt'), 'edited live\n');
    await recorded;
    const edited = readTree(root);

    recorded = nextGroup();
    git(root, 'reset', '-q', '--hard');
    await recorded;
    await engine.unwatch(projectId);
    const checkpoint = engine.log(projectId).find((s) => s.kind === 'checkpoint');
    expect(checkpoint?.label).toMatch(/^Before HEAD moved: reset/);
    expect(engine.log(projectId).at(-1)!.snapshotId).toBeGreaterThan(checkpoint!.snapshotId);
    await engine.restoreSnapshot(projectId, checkpoint!.snapshotId);
    expect(readTree(root)).toEqual(edited);
  });

  it('without a reflog, compares HEAD with the commit the latest snapshot recorded', async () => {
    const { root, engine, store, projectId } = await openedRepo({ 'a.txt': 'one\n' });
    const first = git(root, 'rev-parse', 'HEAD');
    writeFileSync(join(root, 'a.txt'), 'two\n');
    git(root, 'commit', '-qam', 'two');
    git(root, 'config', 'core.logAllRefUpdates', 'false');
    rmSync(join(root, '.git', 'logs'), { recursive: true });
    store.index.setMeta('git.headLog', ''); // as if the reflog had never been seen
    notRacy(store);
    await engine.rescan(projectId);
    const checkpoint = engine.log(projectId).find((s) => s.kind === 'checkpoint');
    expect(checkpoint).toMatchObject({ label: `Before HEAD moved (${first.slice(0, 7)} to ${git(root, 'rev-parse', '--short=7', 'HEAD')})`, head: first });
  });

  it('writes one checkpoint per move, not one per change group after it', async () => {
    const { root, engine, store, projectId } = await openedRepo({ 'a.txt': 'one\n' });
    writeFileSync(join(root, 'a.txt'), 'edit\n');
    await engine.rescan(projectId);
    git(root, 'reset', '-q', '--hard');
    for (const text of ['x\n', 'y\n', 'z\n']) {
      notRacy(store);
      await engine.rescan(projectId);
      writeFileSync(join(root, 'a.txt'), text);
    }
    expect(engine.log(projectId).filter((s) => s.kind === 'checkpoint')).toHaveLength(1);
  });

  it("labels moves in git's words", () => {
    const sha = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
    expect(checkpointLabel([{ from: sha, to: 'f'.repeat(40), subject: 'checkout: moving from topic to main' }], sha)).toBe('Before checkout to main (a1b2c3d)');
    expect(checkpointLabel([{ from: sha, to: sha, subject: 'reset: moving to HEAD' }], sha)).toBe('Before HEAD moved: reset (a1b2c3d)');
    expect(
      checkpointLabel(
        [
          { from: sha, to: sha, subject: 'rebase (start): checkout main' },
          { from: sha, to: sha, subject: 'rebase (finish): returning to refs/heads/x' },
        ],
        sha,
      ),
    ).toBe('Before HEAD moved: rebase (a1b2c3d) and 1 more');
    expect(checkpointLabel([{ from: sha, to: 'f'.repeat(40), subject: '' }], sha)).toBe('Before HEAD moved (a1b2c3d to fffffff)');
  });
});
