import Database from 'better-sqlite3';
import { realpathSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { historyDbPath } from '../../../electron/history/store/storeLayout.js';
import { cliJson, runCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { DROP_AFTER_SCHEMA_2, DROP_AFTER_SCHEMA_5 } from '../db/olderSchema.js';

// Pins: a checkpoint a person makes is pinned as it is made; any snapshot or version can be
// pinned and unpinned from the engine and the CLI; a store from before pins existed gets the
// checkpoints a person made pinned (not git's, nor a mass change's) when it is first opened.

function project() {
  const root = realpathSync(tempDir('hindsight-pins-'));
  writeTree(root, { 'a.txt': 'one', 'b.txt': 'two' });
  const dataDir = tempDir('hindsight-data-');
  return { root, dataDir };
}

async function openEngine(dataDir: string, root: string) {
  const engine = new HistoryEngine(dataDir);
  onTestFinished(() => engine.close());
  const { projectId } = await engine.open(root);
  return { engine, projectId };
}

describe('pins', () => {
  it('pins a checkpoint when it is made, and pins and unpins snapshots and versions', async () => {
    const { root, dataDir } = project();
    const { engine, projectId } = await openEngine(dataDir, root);
    expect(engine.pins(projectId)).toEqual({ snapshots: [], versions: [] });
    const checkpoint = await engine.checkpoint(projectId, 'before the refactor');
    expect(engine.pins(projectId).snapshots).toEqual([checkpoint.snapshotId]);
    const [version] = engine.versions(projectId, 'a.txt');
    expect(engine.setPin(projectId, { versionId: version!.versionId, path: 'a.txt' }, true)).toEqual({
      snapshots: [checkpoint.snapshotId],
      versions: [version!.versionId],
    });
    // Twice is no error and no second row; unpinning what is not pinned neither.
    engine.setPin(projectId, { versionId: version!.versionId }, true);
    expect(engine.pins(projectId).versions).toEqual([version!.versionId]);
    expect(engine.setPin(projectId, { snapshotId: checkpoint.snapshotId }, false)).toEqual({ snapshots: [], versions: [version!.versionId] });
    engine.setPin(projectId, { snapshotId: checkpoint.snapshotId }, false);
    expect(() => engine.setPin(projectId, { snapshotId: 999 }, true)).toThrow(expect.objectContaining({ code: 'SNAPSHOT_NOT_FOUND' }));
    expect(() => engine.setPin(projectId, { versionId: version!.versionId, path: 'b.txt' }, true)).toThrow(
      expect.objectContaining({ code: 'VERSION_NOT_FOUND' }),
    );
  });

  it("pins the checkpoints a person made in a store from before pins (schema 5), by origin, not git's nor a mass change's", async () => {
    const { root, dataDir } = project();
    const { engine, projectId } = await openEngine(dataDir, root);
    const file = historyDbPath(engine.store(projectId).storeDir);
    engine.close();
    const db = new Database(file);
    // As schema 5 left it: origins recorded. git's checkpoints are told by their origin, whatever their label says.
    db.exec(`${DROP_AFTER_SCHEMA_5}
      INSERT INTO snapshots (kind, at, label, origin, git_operation, git_when) VALUES
        ('checkpoint', 1, 'mine', 'checkpoint', NULL, NULL),
        ('checkpoint', 2, 'Before stash (abc1234)', 'git', 'stash', 'before'),
        ('checkpoint', 3, 'Before checkout to main (abc1234)', 'git', 'checkout', 'before'),
        ('checkpoint', 4, 'Before 12 files changed at once', 'checkpoint', NULL, NULL),
        ('checkpoint', 5, 'Before the refactor', 'checkpoint', NULL, NULL);`);
    db.pragma('user_version = 5');
    db.close();
    const again = await openEngine(dataDir, root);
    const byLabel = new Map(again.engine.log(again.projectId).map((s) => [s.label, s.snapshotId]));
    expect(again.engine.pins(again.projectId)).toEqual({ snapshots: [byLabel.get('mine'), byLabel.get('Before the refactor')], versions: [] });
  });

  it('pins the checkpoints of a store from before origins (schema 2) by their labels, not the ones git HEAD moves made', async () => {
    const { root, dataDir } = project();
    const { engine, projectId } = await openEngine(dataDir, root);
    const file = historyDbPath(engine.store(projectId).storeDir);
    engine.close();
    const db = new Database(file);
    // The store as schema 2 left it: no origins, no pin or mark tables, checkpoints told by their labels only.
    db.exec(`${DROP_AFTER_SCHEMA_2}
      INSERT INTO snapshots (kind, at, label) VALUES ('checkpoint', 1, 'mine'), ('checkpoint', 2, 'Before checkout to main (abc1234)'),
        ('checkpoint', 3, 'Before HEAD moved: reset (abc1234)'), ('checkpoint', 4, 'Before stash pop (abc1234)'),
        ('checkpoint', 5, 'Before 3 files changed at once');`);
    db.pragma('user_version = 2');
    db.close();
    const again = await openEngine(dataDir, root);
    const mine = again.engine.log(again.projectId).find((s) => s.label === 'mine')!;
    expect(again.engine.pins(again.projectId)).toEqual({ snapshots: [mine.snapshotId], versions: [] });
  });

  it('pins and unpins from the CLI, which checks what it is given', async () => {
    const { root, dataDir } = project();
    const data = ['--data-dir', dataDir];
    expect((await runCli(['open', root, ...data])).code).toBe(0);
    const [snapshot] = await cliJson<{ snapshotId: number }[]>(['log', root, '--json', ...data]);
    expect(await cliJson(['pin', root, '--snapshot', String(snapshot!.snapshotId), '--json', ...data])).toEqual({
      snapshots: [snapshot!.snapshotId],
      versions: [],
    });
    const [{ versionId }] = (await cliJson<{ versionId: number }[]>(['log', root, 'a.txt', '--json', ...data])) as [{ versionId: number }];
    expect(await cliJson(['pin', root, 'a.txt', '--version', String(versionId), '--json', ...data])).toEqual({
      snapshots: [snapshot!.snapshotId],
      versions: [versionId],
    });
    expect(await cliJson(['unpin', root, '--snapshot', String(snapshot!.snapshotId), '--json', ...data])).toEqual({ snapshots: [], versions: [versionId] });
    const human = await runCli(['unpin', root, 'a.txt', '--version', String(versionId), ...data]);
    expect([human.code, human.stdout.toString()]).toEqual([0, `Version 1 of a.txt (--version ${versionId}) is no longer pinned.\n`]);
    for (const bad of [
      ['pin', root],
      ['pin', root, 'a.txt'],
      ['pin', root, '--snapshot', '1', '--version', '2'],
      ['pin', root, '--snapshot', 'x'],
    ]) {
      const refused = await runCli([...bad, ...data]);
      expect(refused.code, bad.join(' ')).not.toBe(0);
    }
    const wrongFile = await runCli(['pin', root, 'b.txt', '--version', String(versionId), ...data]);
    expect([wrongFile.code, wrongFile.stderr]).toEqual([1, expect.stringContaining(`${versionId} is not the id of a version of b.txt`)]);
  });
});

describe('the budget and the policy in config.json', () => {
  it('defaults to 2 GiB and the documented policy, takes units, and refuses what is not a size', async () => {
    const data = ['--data-dir', tempDir('hindsight-data-')];
    expect(await cliJson(['config', 'get', 'historyBudget', ...data])).toBe(2 * 1024 ** 3);
    expect(await cliJson(['config', 'get', 'retention', ...data])).toEqual({
      keepAllHours: 24,
      hourly: 168,
      daily: 30,
      weekly: null,
      uncommittedDays: 7,
      graceMinutes: 60,
      archiveToRemote: null,
    });
    await cliJson(['config', 'set', 'historyBudget', '1GiB', ...data]);
    expect(await cliJson(['config', 'get', 'historyBudget', ...data])).toBe(1024 ** 3);
    await cliJson(['config', 'set', 'historyBudget', '500 MB', ...data]);
    expect(await cliJson(['config', 'get', 'historyBudget', ...data])).toBe(500_000_000);
    await cliJson(['config', 'set', 'historyBudget', 'null', ...data]);
    expect(await cliJson(['config', 'get', 'historyBudget', ...data])).toBeNull();
    await cliJson(['config', 'set', 'retention.hourly', '48', ...data]);
    expect(await cliJson(['config', 'get', 'retention', ...data])).toMatchObject({ hourly: 48, daily: 30 });
    for (const [key, bad] of [
      ['historyBudget', '1 parsec'],
      ['historyBudget', '0'],
      ['retention.hourly', '-1'],
      ['retention.monthly', '3'],
    ]) {
      const refused = await runCli(['config', 'set', key!, bad!, ...data]);
      expect(refused.code, `${key} ${bad}`).not.toBe(0);
    }
    expect(await cliJson(['config', 'get', 'retention', ...data])).toMatchObject({ hourly: 48 });
  });
});
