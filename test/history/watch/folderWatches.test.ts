import { describe, expect, it } from 'vitest';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FolderWatches } from '../../../electron/history/watch/folderWatches.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { projectWithBaseline } from '../versions/versionsHelpers.js';
import { until } from '../../helpers/until.js';

// A watch per folder, none per file: the memory and the OS's watches of a recorder grow with a
// project's folders, not its files. Events name files by path; folders created, removed or moved
// are doubts (a rescan finds their files), and from then on they are watched as they are.

function recorder() {
  const files = new Set<string>();
  const doubts: string[] = [];
  const limits: unknown[] = [];
  return { files, doubts, limits, events: { file: (p: string) => files.add(p), doubt: (r: string) => doubts.push(r), limit: (e: unknown) => limits.push(e) } };
}

describe('a watch per folder', () => {
  it('watches every folder once and no file, leaving ignored folders and .git out', async () => {
    const root = tempDir();
    const tree: Record<string, string> = { '.git/HEAD': 'ref', '.git/objects/ab/cd': 'x', 'node_modules/x/index.js': 'x' };
    for (let i = 0; i < 40; i++) tree[`${['', 'a/', 'a/b/', 'c/'][i % 4]}f${i}.txt`] = `file ${i}`;
    writeTree(root, tree);
    const seen = recorder();
    const watches = new FolderWatches(root, (path) => path === 'node_modules' || path.startsWith('node_modules/'), seen.events);
    await watches.watchAll();
    // The root, a, a/b and c: 4 watches for 40 files.
    expect(watches.size).toBe(4);
    watches.close();
    expect(watches.size).toBe(0);
  });

  it('names the files written, created and removed; a new folder is a doubt and is watched from then on', async () => {
    const root = tempDir();
    writeTree(root, { 'a/one.txt': '1', 'top.txt': 't' });
    const seen = recorder();
    const watches = new FolderWatches(root, () => false, seen.events);
    await watches.watchAll();
    writeFileSync(join(root, 'a/one.txt'), '1, edited');
    writeFileSync(join(root, 'made.txt'), 'new');
    rmSync(join(root, 'top.txt'));
    await until(() => ['a/one.txt', 'made.txt', 'top.txt'].every((p) => seen.files.has(p)));

    mkdirSync(join(root, 'fresh'));
    await until(() => seen.doubts.includes('folder created') && watches.size === 3);
    writeFileSync(join(root, 'fresh/inside.txt'), 'in');
    await until(() => seen.files.has('fresh/inside.txt'));

    renameSync(join(root, 'fresh'), join(root, 'moved'));
    await until(() => watches.size === 3 && seen.doubts.includes('folder removed'));
    writeFileSync(join(root, 'moved/later.txt'), 'later');
    await until(() => seen.files.has('moved/later.txt'));
    rmSync(join(root, 'moved'), { recursive: true });
    await until(() => watches.size === 2);
    expect(seen.limits).toEqual([]);
    watches.close();
  });

  it('watches a folder the ignore rules stop leaving out, and drops one they start to', async () => {
    const root = tempDir();
    writeTree(root, { 'build/out.txt': 'o', 'src/a.txt': 'a' });
    let left = 'build';
    const seen = recorder();
    const watches = new FolderWatches(root, (path) => path === left || path.startsWith(`${left}/`), seen.events);
    await watches.watchAll();
    expect(watches.size).toBe(2);
    left = 'src';
    await watches.refresh();
    expect(watches.size).toBe(2);
    writeFileSync(join(root, 'build/out.txt'), 'o, edited');
    await until(() => seen.files.has('build/out.txt'));
    watches.close();
  });

  it('records live an edit in a folder a .gitignore edit stops ignoring', async () => {
    const { engine, root, store, projectId } = await projectWithBaseline({ '.gitignore': 'logs/\n', 'a.txt': 'a' });
    mkdirSync(join(root, 'logs'));
    writeFileSync(join(root, 'logs/app.log'), 'one\n');
    const groups: unknown[] = [];
    // No periodic rescan within the test: only the watch can find the edit.
    await engine.watch(projectId, { quietMs: 100, maxGroupMs: 1000, reconcileEveryMs: 3_600_000, onGroup: (g) => groups.push(g) });
    await until(() => groups.length >= 1);
    writeFileSync(join(root, '.gitignore'), '# nothing left out\n');
    await until(() => store.index.versions.versionsOf('logs/app.log').length === 1);
    writeFileSync(join(root, 'logs/app.log'), 'one\ntwo\n');
    await until(() => store.index.versions.versionsOf('logs/app.log').length === 2);
    await engine.unwatch(projectId);
  });
});
