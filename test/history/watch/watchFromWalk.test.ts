import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FolderWatches } from '../../../electron/history/watch/folderWatches.js';
import { walkFolder } from '../../../electron/history/walk/walkFolder.js';
import { walkedFolders } from '../../../electron/history/walk/walkedFolders.js';
import { counter } from '../../../electron/history/trace.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { projectWithBaseline } from '../versions/versionsHelpers.js';
import { pastNow, until, WALKED_TREE } from './walkedTree.js';

// A watch set up right after a rescan starts from the folders the rescan's walk listed: each
// folder is listed once, by the walk, unless its entries changed in between.

/** The root, a, a/b, c, c/d and c/d/e. */
const FOLDERS = 6;

describe('a watch that starts from the walk', () => {
  it('lists every folder once in a rescan and the watch after it, and still hears every folder', async () => {
    const { engine, root, projectId } = await projectWithBaseline(WALKED_TREE);
    await pastNow();
    const walkListings = counter('walk.readdir');
    const watchListings = counter('watch.readdir');
    await engine.rescan(projectId, { racyWindowMs: 0 });
    const files: string[] = [];
    await engine.watch(projectId, { quietMs: 50, maxGroupMs: 1000, onGroup: (g) => files.push(...g.changed) });
    expect(counter('walk.readdir') - walkListings).toBe(FOLDERS);
    expect(counter('watch.readdir') - watchListings).toBe(0);
    writeFileSync(join(root, 'c/d/e/four.txt'), '4, edited');
    await until(() => files.includes('c/d/e/four.txt'));
    await engine.unwatch(projectId);
  });

  it('lists again only a folder whose entries changed after the walk, and watches the folder made in it', async () => {
    const root = tempDir();
    writeTree(root, WALKED_TREE);
    await pastNow();
    const walked = walkedFolders(Date.now(), 0);
    await walkFolder(root, { walked });
    expect(walked.folders.size).toBe(FOLDERS);
    mkdirSync(join(root, 'a/late'));
    const files = new Set<string>();
    const watches = new FolderWatches(root, () => false, { file: (p) => files.add(p), doubt: () => undefined, limit: () => undefined });
    const watchListings = counter('watch.readdir');
    await watches.watchAll(walked);
    // `a` is listed again for its new folder, and `a/late` to find the folders in it.
    expect(counter('watch.readdir') - watchListings).toBe(2);
    expect(watches.size).toBe(FOLDERS + 1);
    writeFileSync(join(root, 'a/late/new.txt'), 'n');
    await until(() => files.has('a/late/new.txt'));
    watches.close();
  });

  it('lists again every folder the walk saw within its racy window', async () => {
    const root = tempDir();
    writeTree(root, WALKED_TREE);
    const walked = walkedFolders(Date.now(), 60_000);
    await walkFolder(root, { walked });
    const watches = new FolderWatches(root, () => false, { file: () => undefined, doubt: () => undefined, limit: () => undefined });
    const watchListings = counter('watch.readdir');
    await watches.watchAll(walked);
    expect(counter('watch.readdir') - watchListings).toBe(FOLDERS);
    expect(watches.size).toBe(FOLDERS);
    watches.close();
  });
});
