import { describe, expect, it } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FolderWatches } from '../../../electron/history/watch/folderWatches.js';
import { walkFolder } from '../../../electron/history/walk/walkFolder.js';
import { walkedFolders } from '../../../electron/history/walk/walkedFolders.js';
import { counter } from '../../../electron/history/trace.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { projectWithBaseline } from '../versions/versionsHelpers.js';
import { pastNow, until, WALKED_TREE } from './walkedTree.js';

// A watch started from a rescan's walk needs no second walk: each folder's watch is in place
// before its files are looked at again, so a change made before the walk is seen by the walk, one
// made during it or between it and the watch by a new ctime, and one after it by an event.

describe('a watch started from the walk', () => {
  it('records a change made before the walk, between the walk and the watch, and after, with one walk', async () => {
    const { engine, root, projectId } = await projectWithBaseline(WALKED_TREE);
    writeFileSync(join(root, 'a/one.txt'), '1, before the walk');
    await pastNow();
    const walks = counter('walk.tree');
    const caughtUp = await engine.rescan(projectId, { racyWindowMs: 0 });
    expect(caughtUp.changed).toBe(1);
    // Between the walk and the watch: an edit, a new file, a deletion.
    writeFileSync(join(root, 'c/d/e/four.txt'), '4, between');
    writeFileSync(join(root, 'a/b/new.txt'), 'new, between');
    rmSync(join(root, 'top.txt'));
    const groups: { changed: string[]; reconciled: boolean }[] = [];
    await engine.watch(projectId, { quietMs: 50, maxGroupMs: 1000, onGroup: (g) => groups.push(g) });
    writeFileSync(join(root, 'c/three.txt'), '3, after');
    const changed = () => groups.flatMap((g) => g.changed);
    await until(() => ['c/d/e/four.txt', 'a/b/new.txt', 'top.txt', 'c/three.txt'].every((p) => changed().includes(p)));
    // The catch-up's walk alone: no group was a rescan.
    expect(counter('walk.tree') - walks).toBe(1);
    expect(groups.filter((g) => g.reconciled)).toEqual([]);
    await engine.unwatch(projectId);
  });

  it('tells the files written and added during the walk, in folders it had already listed', async () => {
    const root = tempDir();
    writeTree(root, WALKED_TREE);
    await pastNow();
    const walked = walkedFolders(Date.now(), 0);
    let first = true;
    await walkFolder(root, {
      walked,
      onEntries: (entries) => {
        if (!first) return;
        first = false;
        // The root's entries were just looked at: these changes come after its listing and lstats.
        for (const entry of entries) writeFileSync(join(root, entry.path), 'during the walk');
        writeFileSync(join(root, 'added.txt'), 'during the walk');
      },
    });
    const files = new Set<string>();
    const doubts: string[] = [];
    const watches = new FolderWatches(root, () => false, { file: (p) => files.add(p), doubt: (r) => doubts.push(r), limit: () => undefined });
    await watches.watchAll(walked);
    expect([...files].sort()).toEqual(['added.txt', 'top.txt']);
    expect(doubts).toEqual([]);
    watches.close();
  });

  it('doubts a folder created between the walk and the watch, whose files no walk saw', async () => {
    const root = tempDir();
    writeTree(root, WALKED_TREE);
    await pastNow();
    const walked = walkedFolders(Date.now(), 0);
    await walkFolder(root, { walked });
    writeTree(join(root, 'a'), { 'late/inside.txt': 'l' });
    const doubts: string[] = [];
    const watches = new FolderWatches(root, () => false, { file: () => undefined, doubt: (r) => doubts.push(r), limit: () => undefined });
    await watches.watchAll(walked);
    expect(doubts).toEqual(['folder created']);
    watches.close();
  });
});
