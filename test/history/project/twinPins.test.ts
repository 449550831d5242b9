import { describe, expect, it, onTestFinished } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

// A twin history merged into the disk spelling's keeps what was pinned in either: each pin follows
// its snapshot or version to the id it has after the merge. Made on ext4 as
// test/cli/twinHistoriesMerged.test.ts makes it: the twin a folder of its own, given the folder's
// identity in config.json.

interface Known {
  root: string;
  identity?: unknown;
}

describe('a twin history merged in', () => {
  it('keeps every pin of both histories on the snapshot or version it named', async () => {
    const data = tempDir('hindsight-data-');
    const base = tempDir();
    const root = join(base, 'rd');
    const twinRoot = join(base, 'RD');
    const engine = new HistoryEngine(data);
    onTestFinished(() => engine.close());
    writeTree(root, { 'a.txt': 'a1\n' });
    const own = await engine.open(root);
    writeTree(twinRoot, { 'a.txt': 'a1\n', 'b.txt': 'b1\n' });
    const twin = await engine.open(twinRoot);
    const twinCheckpoint = await engine.checkpoint(twin.projectId, 'the twin’s checkpoint');
    const twinB = engine.versions(twin.projectId, 'b.txt')[0]!;
    engine.setPin(twin.projectId, { versionId: twinB.versionId }, true);
    writeTree(root, { 'a.txt': 'a2\n' });
    const ownCheckpoint = await engine.checkpoint(own.projectId, 'this history’s checkpoint');
    await engine.closeProject(own.projectId);
    await engine.closeProject(twin.projectId);
    const file = join(data, 'config.json');
    const config = JSON.parse(readFileSync(file, 'utf8')) as { projects: Known[] };
    config.projects.find((p) => p.root === twinRoot)!.identity = config.projects.find((p) => p.root === root)!.identity;
    writeFileSync(file, JSON.stringify(config, null, 2));

    const opened = await engine.open(root);
    expect(opened.repaired).toHaveLength(1);
    const log = engine.log(own.projectId);
    const byLabel = (label: string) => log.find((s) => s.label === label)!;
    expect(byLabel('the twin’s checkpoint').at).toBe(twinCheckpoint.at);
    expect(byLabel('this history’s checkpoint').at).toBe(ownCheckpoint.at);
    const pins = engine.pins(own.projectId);
    expect(pins.snapshots.sort((x, y) => x - y)).toEqual(
      [byLabel('the twin’s checkpoint').snapshotId, byLabel('this history’s checkpoint').snapshotId].sort((x, y) => x - y),
    );
    const b = engine.versions(own.projectId, 'b.txt');
    // b.txt is not in this folder on ext4: the rescan after the merge records it deleted.
    expect(b.map((v) => v.hash)).toEqual([twinB.hash, null]);
    expect(pins.versions).toEqual([b[0]!.versionId]);
  });
});
