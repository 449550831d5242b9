import { existsSync, mkdirSync, readdirSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { runCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { notRacy } from '../versions/versionsHelpers.js';

// Empty folders are part of a snapshot: recorded, listed, and written back by a snapshot or
// folder restore and by `restore --into`, with their recorded modes (restic and borg do the
// same). Real folders, the real engine and CLI.

async function projectWithEmptyFolders() {
  const root = tempDir('hindsight-empty-');
  writeTree(root, { 'src/a.txt': 'a\n' });
  mkdirSync(join(root, 'assets/empty'), { recursive: true });
  mkdirSync(join(root, 'logs'), { mode: 0o750 });
  const dataDir = tempDir('hindsight-data-');
  const engine = new HistoryEngine(dataDir);
  onTestFinished(() => engine.close());
  const { projectId } = await engine.open(root);
  const baseline = engine.log(projectId)[0]!.snapshotId;
  return { root, dataDir, engine, projectId, baseline };
}

describe('empty folders', () => {
  it('are recorded and listed; a folder removed is recorded gone', async () => {
    const { root, engine, projectId, baseline } = await projectWithEmptyFolders();
    expect(engine.emptyFolders(projectId)).toEqual([
      { path: 'assets/empty', mode: statSync(join(root, 'assets/empty')).mode & 0o7777 },
      { path: 'logs', mode: 0o750 },
    ]);
    rmdirSync(join(root, 'logs'));
    mkdirSync(join(root, 'new-empty'));
    notRacy(engine.store(projectId));
    await engine.rescan(projectId);
    expect(engine.emptyFolders(projectId).map((f) => f.path)).toEqual(['assets/empty', 'new-empty']);
    expect(engine.emptyFolders(projectId, baseline).map((f) => f.path)).toEqual(['assets/empty', 'logs']);
  });

  it('come back with a snapshot restore and a folder restore, and stay when a restore deletes the files beside them', async () => {
    const { root, engine, projectId, baseline } = await projectWithEmptyFolders();
    rmdirSync(join(root, 'logs'));
    rmdirSync(join(root, 'assets/empty'));
    rmdirSync(join(root, 'assets'));
    notRacy(engine.store(projectId));
    await engine.rescan(projectId);

    await engine.restoreSnapshot(projectId, baseline, { prefix: 'logs' });
    expect(readdirSync(join(root, 'logs'))).toEqual([]);
    expect(statSync(join(root, 'logs')).mode & 0o7777).toBe(0o750);
    expect(existsSync(join(root, 'assets'))).toBe(false);

    writeTree(root, { 'assets/empty/added.txt': 'added after\n' });
    notRacy(engine.store(projectId));
    await engine.rescan(projectId);
    await engine.restoreSnapshot(projectId, baseline, { deleteAdded: true });
    expect(readdirSync(join(root, 'assets/empty'))).toEqual([]);
    expect(readdirSync(join(root, 'logs'))).toEqual([]);
  });

  it('are written by restore --into and listed by files', async () => {
    const { root, dataDir, engine, baseline } = await projectWithEmptyFolders();
    engine.close();
    const into = join(tempDir('hindsight-into-'), 'copy');
    const written = await runCli(['restore', root, '--snapshot', String(baseline), '--into', into, '--data-dir', dataDir]);
    expect(written.code).toBe(0);
    expect(readdirSync(join(into, 'assets/empty'))).toEqual([]);
    expect(readdirSync(join(into, 'logs'))).toEqual([]);
    expect(statSync(join(into, 'logs')).mode & 0o7777).toBe(0o750);
    const files = (await runCli(['files', root, '--data-dir', dataDir])).stdout.toString();
    expect(files).toContain('src/a.txt');
    expect(files).toMatch(/EMPTY FOLDER\n.*assets\/empty\/\n.*logs\/\n$/);
  });
});
