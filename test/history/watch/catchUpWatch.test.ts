import { describe, expect, it } from 'vitest';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { counter } from '../../../electron/history/trace.js';
import { projectWithBaseline } from '../versions/versionsHelpers.js';
import { pastNow, until, WALKED_TREE } from './walkedTree.js';

// A catch-up places each folder's watch just before its walk lists the folder: every file is
// lstat'ed once, by the walk, and a change made at any moment of the catch-up is either seen by
// the walk (made before the folder's listing) or heard by the watch (made after its placing).

const FILES = Object.keys(WALKED_TREE).length;
/** The root, a, a/b, c, c/d and c/d/e. */
const FOLDERS = 6;

describe('a catch-up that places the watch as its walk goes', () => {
  it('lstats each file once and lists each folder once, with no second pass', async () => {
    const { engine, projectId } = await projectWithBaseline(WALKED_TREE);
    await pastNow();
    const before = {
      walk: counter('walk.lstat'),
      watch: counter('watch.lstat'),
      walkListings: counter('walk.readdir'),
      watchListings: counter('watch.readdir'),
    };
    const caught = await engine.catchUpAndWatch(projectId, {}, { quietMs: 50, maxGroupMs: 1000 });
    expect(caught.changed).toBe(0);
    expect(counter('walk.lstat') - before.walk).toBe(FILES);
    expect(counter('watch.lstat') - before.watch).toBe(0);
    expect(counter('walk.readdir') - before.walkListings).toBe(FOLDERS);
    expect(counter('watch.readdir') - before.watchListings).toBe(0);
    expect(counter('watch.open')).toBeGreaterThan(0);
  });

  it('records a change made before, at and after a folder is listed, during the catch-up, with its one walk', async () => {
    const { engine, root, projectId } = await projectWithBaseline(WALKED_TREE);
    await pastNow();
    const edits: Record<string, (() => void)[]> = {
      // The root is watched and about to be listed; `a` is neither yet: the walk sees this.
      '': [() => writeFileSync(join(root, 'a/one.txt'), '1, before a is listed')],
      // `a` is watched, not listed yet: the walk, the watch or both see this. The root was listed
      // and its files lstat'ed (it is the first folder): only the watch hears its deletion.
      a: [() => writeFileSync(join(root, 'a/added.txt'), 'added as a is listed'), () => rmSync(join(root, 'top.txt'))],
      // `a` was listed and its files lstat'ed (a/b is listed after it): only the watch hears these.
      'a/b': [() => writeFileSync(join(root, 'a/one.txt'), '1, after a was walked'), () => writeFileSync(join(root, 'a/late.txt'), 'late')],
    };
    const walks = counter('walk.tree');
    const lstats = counter('walk.lstat');
    const groups: { changed: string[]; reconciled: boolean }[] = [];
    const caught = await engine.catchUpAndWatch(
      projectId,
      { onFolder: (path) => edits[path]?.forEach((edit) => edit()) },
      { quietMs: 50, maxGroupMs: 1000, onGroup: (g) => groups.push(g) },
    );
    // One lstat per file the walk found: the tree's, top.txt perhaps gone, a/added.txt.
    expect(counter('walk.lstat') - lstats).toBeGreaterThanOrEqual(FILES);
    expect(counter('walk.lstat') - lstats).toBeLessThanOrEqual(FILES + 1);
    expect(caught.snapshotId).not.toBeNull();
    expect(engine.snapshotChanges(projectId, caught.snapshotId!).map((c) => c.path)).toContain('a/one.txt');
    // a/one.txt's second write may come before its hashing: then the catch-up holds it, and its group finds it the same.
    const heard = ['top.txt', 'a/late.txt'];
    await until(() => heard.every((p) => groups.flatMap((g) => g.changed).includes(p)));
    await engine.unwatch(projectId);
    // The catch-up's walk alone: no group was a rescan.
    expect(counter('walk.tree') - walks).toBe(1);
    expect(groups.filter((g) => g.reconciled)).toEqual([]);
    expect(engine.files(projectId).map((f) => f.path)).toEqual(['a/added.txt', 'a/b/two.txt', 'a/late.txt', 'a/one.txt', 'c/d/e/four.txt', 'c/three.txt']);
    for (const path of ['a/added.txt', 'a/late.txt', 'a/one.txt']) {
      expect((await engine.readVersion(projectId, path, { maxBytes: 100 })).data).toBe(readFileSync(join(root, path), 'utf8'));
    }
  });
});
