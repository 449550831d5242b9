import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangeGroupResult } from '../../../electron/history/versions/changeGroup.js';
import { ChangeBatcher, type ChangeGroupRequest } from '../../../electron/history/watch/changeBatcher.js';
import { IgnoreMatcher } from '../../../electron/history/watch/ignoreMatcher.js';
import { PERIODIC_CHECK, ProjectWatcher } from '../../../electron/history/watch/projectWatcher.js';
import { trackedPaths } from '../../../electron/history/git/trackedPaths.js';
import { git, makeRepo, write } from '../git/gitFixture.js';
import { counter } from '../../../electron/history/trace.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { sha256, writeTree } from '../../helpers/writeTree.js';
import { changedPaths, projectWithBaseline } from '../versions/versionsHelpers.js';
import { until } from '../../helpers/until.js';

type Group = ChangeGroupResult & { reconciled: boolean };

/** Waits (without a time limit of its own: the test's timeout is the limit) until `ready` holds. */

describe('the live watcher', () => {
  it('records an edit made on disk, and a file written twice in one window as one version', async () => {
    const { engine, root, store, projectId } = await projectWithBaseline({ 'notes.txt': 'v0', 'other.txt': 'o' });
    const groups: Group[] = [];
    await engine.watch(projectId, { quietMs: 150, maxGroupMs: 2000, onGroup: (g) => groups.push(g) });
    // The watch starts with a reconciling rescan (whatever changed before the watch was ready).
    await until(() => groups.length >= 1);
    expect(groups[0]!.reconciled).toBe(true);

    writeFileSync(join(root, 'notes.txt'), 'v1');
    writeFileSync(join(root, 'notes.txt'), 'v2, written right after');
    await until(() => groups.some((g) => g.changed.includes('notes.txt')));
    const versions = store.index.versions.versionsOf('notes.txt');
    expect(versions.map((v) => v.kind)).toEqual(['baseline', 'change']);
    expect(versions[1]!.hash).toBe(sha256('v2, written right after'));
    const group = groups.find((g) => g.changed.includes('notes.txt'))!;
    expect(group.reconciled).toBe(false);
    expect(changedPaths(store, group.snapshotId)).toEqual(['notes.txt']);
    await engine.unwatch(projectId);
  });

  it('never loses the files of a folder created with files in it at once: the folder triggers a rescan', async () => {
    const { engine, root, store, projectId } = await projectWithBaseline({ 'a.txt': 'a' });
    const groups: Group[] = [];
    await engine.watch(projectId, { quietMs: 150, maxGroupMs: 2000, onGroup: (g) => groups.push(g) });
    await until(() => groups.length >= 1);
    mkdirSync(join(root, 'fresh/deeper'), { recursive: true });
    for (let i = 0; i < 20; i++) writeFileSync(join(root, `fresh/deeper/f${i}.txt`), `file ${i}`);
    await until(() => store.index.files.filesAt().length === 21);
    expect(groups.some((g) => g.reconciled && g.changed.length > 0)).toBe(true);
    await engine.unwatch(projectId);
  });

  it('reconciles every so often, with no event at all (an overflowing queue drops events silently)', async () => {
    const { engine, projectId } = await projectWithBaseline({ 'a.txt': 'a' });
    const groups: Group[] = [];
    await engine.watch(projectId, { quietMs: 50, maxGroupMs: 500, reconcileEveryMs: 200, onGroup: (g) => groups.push(g) });
    await until(() => groups.length >= 3);
    expect(groups.every((g) => g.reconciled)).toBe(true);
    await engine.unwatch(projectId);
  });

  it('waits twice as long before each periodic check that follows a quiet stretch, and the base wait again once something is heard', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'a' });
    const committed: ChangeGroupRequest[] = [];
    const checks = counter('watch.periodicChecks');
    // A base wait long enough that no check fires between two looks of the test (every 20 ms).
    const watcher = await ProjectWatcher.start(root, { quietMs: 20, reconcileEveryMs: 500, commit: async (g) => void committed.push(g) });
    try {
      expect(watcher.reconcileDelayMs).toBe(500);
      await until(() => counter('watch.periodicChecks') - checks >= 3);
      // 500, 1,000, 2,000 ms waited: the next waits 4,000.
      expect(watcher.reconcileDelayMs).toBe(4000);
      writeFileSync(join(root, 'a.txt'), 'heard');
      // Heard: the next check comes the base wait from now (what a full queue dropped is found then).
      await until(() => watcher.reconcileDelayMs === 500);
      const heardAt = counter('watch.periodicChecks');
      // The check after something was heard is followed by the base wait again, the next by twice that.
      await until(() => counter('watch.periodicChecks') - heardAt >= 1);
      expect(watcher.reconcileDelayMs).toBe(500);
      await until(() => counter('watch.periodicChecks') - heardAt >= 2);
      expect(watcher.reconcileDelayMs).toBe(1000);
      expect(committed.some((g) => g.paths.includes('a.txt'))).toBe(true);
      expect(committed.filter((g) => g.doubt.includes(PERIODIC_CHECK)).length).toBeGreaterThanOrEqual(4);
    } finally {
      await watcher.stop();
    }
  });

  it('writes the open group when it stops, and ignores .git and ignored files', async () => {
    const { engine, root, store, projectId } = await projectWithBaseline({ '.gitignore': 'build/\n*.log\n', 'a.txt': 'a', 'build/x.o': 'x' });
    const groups: Group[] = [];
    await engine.watch(projectId, { quietMs: 60_000, maxGroupMs: 120_000, onGroup: (g) => groups.push(g) });
    writeFileSync(join(root, 'a.txt'), 'changed');
    writeFileSync(join(root, 'debug.log'), 'ignored');
    writeFileSync(join(root, 'build/x.o'), 'ignored too');
    await engine.unwatch(projectId); // long before the quiet window ends
    expect(store.index.versions.latestVersion('a.txt')!.hash).toBe(sha256('changed'));
    expect(store.index.versions.latestVersion('debug.log')).toBeUndefined();
    expect(store.index.versions.latestVersion('build/x.o')).toBeUndefined();
  });
});

describe('the change batcher', () => {
  it('groups changes until the quiet window passes, and closes a busy group at its longest', async () => {
    const groups: ChangeGroupRequest[] = [];
    const batcher = new ChangeBatcher({ quietMs: 80, maxGroupMs: 400 }, (g) => groups.push(g));
    batcher.add('b.txt');
    batcher.add('a.txt');
    batcher.add('b.txt');
    await until(() => groups.length === 1);
    expect(groups[0]).toEqual({ paths: ['a.txt', 'b.txt'], doubt: [] });
    // A file that keeps changing faster than the quiet window is still captured: at the longest.
    let writes = 0;
    const busy = setInterval(() => {
      writes++;
      batcher.add('busy.txt');
    }, 20);
    await until(() => groups.length === 2);
    clearInterval(busy);
    expect(groups[1]!.paths).toEqual(['busy.txt']);
    expect(writes).toBeGreaterThan(1);
    batcher.stop(); // drops what the interval added after the group closed
    batcher.markDoubt('watcher error');
    batcher.flush();
    expect(groups[2]).toEqual({ paths: [], doubt: ['watcher error'] });
    batcher.stop();
  });

  it('starts one watch when two callers ask at once (the recorder of every project and a window opening it)', async () => {
    const { engine, root, projectId } = await projectWithBaseline({ 'a.txt': 'a' });
    const before = counter('watch.open');
    const first: Group[] = [];
    const second: Group[] = [];
    await Promise.all([
      engine.watch(projectId, { quietMs: 50, onGroup: (g) => first.push(g) }),
      engine.watch(projectId, { quietMs: 50, onGroup: (g) => second.push(g) }),
    ]);
    expect(counter('watch.open') - before).toBe(1);
    writeFileSync(join(root, 'a.txt'), 'b');
    await until(() => first.some((g) => g.changed.includes('a.txt')));
    await engine.unwatch(projectId);
    expect(counter('watch.open') - before).toBe(0);
    expect(second).toEqual([]);
  });

  it('applies the first copy ignore rules to single paths', () => {
    const root = tempDir();
    writeTree(root, { '.gitignore': 'dist/\n*.tmp\n', 'sub/.gitignore': '!keep.tmp\nlocal/\n' });
    const m = new IgnoreMatcher(root, ['*.bak']);
    expect(m.ignored('.git/config', false)).toBe(true);
    expect(m.ignored('dist', true)).toBe(true);
    expect(m.ignored('dist/a.js', false)).toBe(true);
    expect(m.ignored('x.tmp', false)).toBe(true);
    expect(m.ignored('sub/keep.tmp', false)).toBe(false);
    expect(m.ignored('sub/local/y.txt', false)).toBe(true);
    expect(m.ignored('notes.bak', false)).toBe(true);
    expect(m.ignored('src/.a.txt.hindsight-0a1b2c3d-0a1b-0a1b-0a1b-0a1b2c3d4e5f', false)).toBe(true);
    expect(m.ignored('src/a.txt', false)).toBe(false);
  });

  it('never ignores a file git tracks by a .gitignore, only by the exclude setting', async () => {
    const root = makeRepo({ '.gitignore': '.env\nbuild/\n', 'a.txt': 'a\n' });
    write(root, '.env', 'tracked\n');
    write(root, 'build/keep.txt', 'tracked\n');
    write(root, 'secret.bak', 'tracked but excluded\n');
    git(root, 'add', '-f', '.env', 'build/keep.txt', 'secret.bak');
    git(root, 'commit', '-qm', 'tracked');
    const m = new IgnoreMatcher(root, ['*.bak'], undefined, await trackedPaths(root));
    expect(m.ignored('.env', false)).toBe(false);
    expect(m.ignored('build', true)).toBe(false);
    expect(m.ignored('build/keep.txt', false)).toBe(false);
    expect(m.ignored('build/out.o', false)).toBe(true);
    expect(m.ignored('secret.bak', false)).toBe(true);
    expect(new IgnoreMatcher(root, []).ignored('.env', false)).toBe(true);
  });
});
