import { describe, expect, it, onTestFinished } from 'vitest';
import { existsSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { RestoreTemps } from '../../../electron/history/project/restoreTemps.js';
import { blobPath, restoreJournalDir } from '../../../electron/history/store/storeLayout.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { sha256, writeTree } from '../../helpers/writeTree.js';

// A restore's temps in the project are removed only when the store journaled them as its own:
// a user's file that merely looks like one is kept and recorded, however old it is.

const LOOK_ALIKE = '.notes.md.hindsight-0b5e2a4c-1d3f-4a6b-8c9d-0e1f2a3b4c5d';

function engineOn(dataDir: string): HistoryEngine {
  const engine = new HistoryEngine(dataDir);
  onTestFinished(() => engine.close());
  return engine;
}

describe('restore temps', () => {
  it('never deletes a user file named like a temp, however old, and records it', async () => {
    const root = tempDir();
    writeTree(root, { 'notes.md': 'notes', [LOOK_ALIKE]: 'mine' });
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(join(root, LOOK_ALIKE), hourAgo, hourAgo);
    const engine = engineOn(tempDir('hindsight-data-'));
    const { projectId } = await engine.open(root);
    writeFileSync(join(root, 'notes.md'), 'changed');
    await engine.rescan(projectId);
    await engine.open(root);

    expect(existsSync(join(root, LOOK_ALIKE))).toBe(true);
    expect(engine.files(projectId).map((f) => f.path)).toEqual([LOOK_ALIKE, 'notes.md']);
  });

  it("removes the journaled temps of a killed restore at the next writer's turn, and only those", async () => {
    const root = tempDir();
    writeTree(root, { 'notes.md': 'notes', 'sub/a.txt': 'a' });
    const dataDir = tempDir('hindsight-data-');
    const first = engineOn(dataDir);
    const { projectId } = await first.open(root);
    const store = first.store(projectId);
    // A restore that died after making its temps: its journal stays, nothing ends it.
    const killed = RestoreTemps.begin(store.storeDir, ['notes.md', 'sub/a.txt', 'never-written.txt']);
    const temps = ['notes.md', 'sub/a.txt'].map((p) => killed.tempFor(join(root, p)));
    for (const temp of temps) writeFileSync(temp, 'half');
    writeFileSync(join(root, LOOK_ALIKE), 'mine');
    first.close();

    // Another process (a new engine) writes next.
    const next = engineOn(dataDir);
    await next.rescan(projectId);

    for (const temp of temps) expect(existsSync(temp), temp).toBe(false);
    expect(existsSync(join(root, LOOK_ALIKE))).toBe(true);
    expect(readdirSync(restoreJournalDir(store.storeDir))).toEqual([]);
    expect(next.files(projectId).map((f) => f.path)).toEqual([LOOK_ALIKE, 'notes.md', 'sub/a.txt']);
  });

  it('leaves no journal behind after restores that succeed or fail', async () => {
    const root = tempDir();
    writeTree(root, { 'notes.md': 'notes', 'sub/a.txt': 'a' });
    const engine = engineOn(tempDir('hindsight-data-'));
    const { projectId } = await engine.open(root);
    writeFileSync(join(root, 'notes.md'), 'changed');
    const [baseline] = engine.versions(projectId, 'notes.md');
    await engine.restoreFile(projectId, 'notes.md', baseline!.versionId);
    writeFileSync(join(root, 'sub/a.txt'), 'changed');
    await engine.restoreSnapshot(projectId, 1);
    // A restore that fails midway (a blob gone from the store) removes its temps and its journal too.
    writeFileSync(join(root, 'sub/a.txt'), 'changed again');
    rmSync(blobPath(engine.store(projectId).blobs.dir, sha256('a')));
    await expect(engine.restoreSnapshot(projectId, 1)).rejects.toMatchObject({ code: 'BLOB_MISSING' });
    const journal = restoreJournalDir(engine.store(projectId).storeDir);
    expect(readdirSync(journal)).toEqual([]);
    expect(readdirSync(root).filter((n) => n.includes('.hindsight-'))).toEqual([]);
  });
});
