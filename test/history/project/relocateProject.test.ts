import { describe, expect, it, onTestFinished } from 'vitest';
import { cpSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HindsightEvent } from '../../../shared/contract.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { projectStoreDir } from '../../../electron/history/store/storeLayout.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

// A project's folder that moves: an open that finds it missing records it as gone (so the next
// listing says so, and a later look finds it present when it is back), and Locate… moves its
// history to the very folder at its new place, never to another folder or a copy.

function engineFor(dataDir: string): HistoryEngine {
  const engine = new HistoryEngine(dataDir);
  onTestFinished(() => engine.close());
  return engine;
}

describe('a project whose folder moves', () => {
  it('is recorded as gone when an open misses it, and present again once it is back', async () => {
    const dataDir = tempDir('hindsight-data-');
    const parent = tempDir();
    const root = join(parent, 'site');
    writeTree(root, { 'a.txt': 'a' });
    const engine = engineFor(dataDir);
    const { projectId } = await engine.open(root);
    await engine.closeProject(projectId);
    const events: HindsightEvent[] = [];
    engine.events.on((e) => events.push(e));

    renameSync(root, join(parent, 'site-moved'));
    await expect(engine.open(root)).rejects.toMatchObject({ code: 'FOLDER_NOT_FOUND' });
    expect(events.filter((e) => e.event === 'projectState').map((e) => e.payload)).toEqual([expect.objectContaining({ projectId, state: 'gone' })]);
    expect((await engine.listProjects()).map((p) => p.state)).toEqual(['gone']);

    renameSync(join(parent, 'site-moved'), root);
    expect((await engine.listProjects({ check: true })).map((p) => p.state)).toEqual(['present']);
    expect(events.filter((e) => e.event === 'projectState').map((e) => e.payload)).toEqual([
      expect.objectContaining({ projectId, state: 'gone' }),
      expect.objectContaining({ projectId, state: 'present' }),
    ]);
  });

  it('moves its history to the same folder at its new place, and opens it there', async () => {
    const dataDir = tempDir('hindsight-data-');
    const parent = tempDir();
    const root = join(parent, 'site');
    writeTree(root, { 'a.txt': 'first' });
    const engine = engineFor(dataDir);
    const { projectId } = await engine.open(root);
    writeFileSync(join(root, 'a.txt'), 'second');
    await engine.rescan(projectId);

    const moved = join(parent, 'site-renamed');
    renameSync(root, moved);
    writeFileSync(join(moved, 'a.txt'), 'third, after the move');
    const opened = await engine.relocate(projectId, moved);
    expect(opened.projectId).not.toBe(projectId);
    expect(opened.project).toMatchObject({ root: moved, name: 'site-renamed', state: 'present' });
    expect(existsSync(projectStoreDir(dataDir, projectId))).toBe(false);
    // The whole history came along, and the open recorded what changed while it was away.
    const versions = engine.versions(opened.projectId, 'a.txt');
    expect(versions.map((v) => v.kind)).toEqual(['baseline', 'change', 'change']);
    expect((await engine.readVersion(opened.projectId, 'a.txt', { versionId: versions[0]!.versionId, maxBytes: 100 })).data).toBe('first');
    expect((await engine.listProjects()).map((p) => [p.projectId, p.root])).toEqual([[opened.projectId, moved]]);
    const config = JSON.parse(readFileSync(join(dataDir, 'config.json'), 'utf8')) as { projects: { id: string }[] };
    expect(config.projects.map((p) => p.id)).toEqual([opened.projectId]);
  });

  it('refuses a copy of the folder: its history stays where it was', async () => {
    const dataDir = tempDir('hindsight-data-');
    const parent = tempDir();
    const root = join(parent, 'site');
    writeTree(root, { 'a.txt': 'a' });
    const engine = engineFor(dataDir);
    const { projectId } = await engine.open(root);
    const copy = join(parent, 'site-copy');
    cpSync(root, copy, { recursive: true });
    await expect(engine.relocate(projectId, copy)).rejects.toMatchObject({
      code: 'FOLDER_REPLACED',
      message: expect.stringMatching(/not the folder that was at/),
    });
    expect(existsSync(projectStoreDir(dataDir, projectId))).toBe(true);
    expect((await engine.listProjects()).map((p) => p.root)).toEqual([root]);
  });
});
