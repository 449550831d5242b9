import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectStoreDir } from '../../electron/history/store/storeLayout.js';
import { cliJson, runCli, startCli } from '../helpers/runCli.js';
import { killAtPoint } from '../helpers/killAtPoint.js';
import { tempDir } from '../helpers/tempDirs.js';
import { sha256, writeTree } from '../helpers/writeTree.js';

// One folder opened under two spellings, each with a history of its own, merged by the open of
// its disk spelling. On ext4 two spellings are two folders: the twin is made a real one, and its
// config.json entry is given the disk spelling's folder identity, as a Hindsight that took the
// path as typed recorded it where names fold.

interface Opened {
  projectId: string;
  repaired?: string[];
}
interface VersionRow {
  versionId: number;
  snapshotId: number;
  hash: string | null;
}
interface SnapshotRow {
  snapshotId: number;
  at: number;
  kind: string;
}
interface Known {
  id: string;
  root: string;
  identity?: unknown;
}

/** `rd` (the disk's spelling) and its twin `RD`, each with two snapshots, the twin's in between. */
async function twins(): Promise<{ root: string; twinRoot: string; data: string; cli: (...args: string[]) => string[]; twinId: string }> {
  const base = tempDir();
  const data = tempDir('hindsight-data-');
  const cli = (...args: string[]) => [...args, '--data-dir', data];
  const root = join(base, 'rd');
  const twinRoot = join(base, 'RD');
  writeTree(root, { 'a.txt': 'a1\n' });
  await cliJson(cli('open', root));
  writeTree(twinRoot, { 'a.txt': 'a1\n', 'b.txt': 'b1\n' });
  const twin = await cliJson<Opened>(cli('open', twinRoot));
  writeTree(twinRoot, { 'b.txt': 'b2\n' });
  await cliJson(cli('open', twinRoot));
  writeTree(root, { 'a.txt': 'a2\n', 'b.txt': 'b2\n' });
  await cliJson(cli('open', root));
  const file = join(data, 'config.json');
  const config = JSON.parse(readFileSync(file, 'utf8')) as { projects: Known[] };
  const own = config.projects.find((p) => p.root === root)!;
  config.projects.find((p) => p.root === twinRoot)!.identity = own.identity;
  writeFileSync(file, JSON.stringify(config, null, 2));
  return { root, twinRoot, data, cli, twinId: twin.projectId };
}

/** Both histories' versions, once each, in time order; the twin forgotten and its store gone. */
async function expectMerged(ctx: Awaited<ReturnType<typeof twins>>): Promise<void> {
  const { root, data, cli, twinId } = ctx;
  expect((await cliJson<Known[]>(cli('projects'))).map((p) => p.root)).toEqual([root]);
  expect(existsSync(projectStoreDir(data, twinId))).toBe(false);
  const log = await cliJson<SnapshotRow[]>(cli('log', root));
  expect(log).toHaveLength(4);
  const ascending = [...log].sort((x, y) => x.snapshotId - y.snapshotId);
  expect(ascending.map((s) => s.snapshotId)).toEqual([1, 2, 3, 4]);
  expect(ascending.map((s) => s.at)).toEqual([...ascending.map((s) => s.at)].sort((x, y) => x - y));
  expect(ascending.map((s) => s.kind)).toEqual(['baseline', 'change', 'change', 'change']);
  const a = await cliJson<VersionRow[]>(cli('log', root, 'a.txt'));
  expect(a.map((v) => v.hash)).toEqual([sha256('a1\n'), sha256('a2\n')]);
  const b = await cliJson<VersionRow[]>(cli('log', root, 'b.txt'));
  expect(b.map((v) => v.hash)).toEqual([sha256('b1\n'), sha256('b2\n')]);
  // The twin's bytes are in this store now.
  const first = await runCli(cli('show', root, 'b.txt', '--version', String(b[0]!.versionId)));
  expect(first.stdout.toString()).toBe('b1\n');
  const verified = await runCli(cli('verify', root));
  expect(verified.code).toBe(0);
}

describe('a folder with a history under each of two spellings', () => {
  it('has the twin merged into the disk spelling’s history by the next open', async () => {
    const ctx = await twins();
    const opened = await runCli(ctx.cli('open', ctx.root, '--json'));
    expect(opened.code).toBe(0);
    expect(opened.stderr.toString()).toContain(`The history recorded for ${ctx.twinRoot} is of ${ctx.root} too`);
    expect((JSON.parse(opened.stdout.toString()) as Opened).repaired).toHaveLength(1);
    await expectMerged(ctx);
    const again = await cliJson<Opened>(ctx.cli('open', ctx.root, '--json'));
    expect(again.repaired).toBeUndefined();
  });

  it.each(['twin-merging', 'twin-merged'])('killed at %s, is merged by the next open with nothing lost', async (point) => {
    const ctx = await twins();
    await killAtPoint(startCli(ctx.cli('open', ctx.root, '--json'), { HINDSIGHT_STOP_AT: point }), point);
    expect((await cliJson<Known[]>(ctx.cli('projects'))).map((p) => p.root).sort()).toEqual([ctx.root, ctx.twinRoot].sort());
    expect(existsSync(projectStoreDir(ctx.data, ctx.twinId))).toBe(true);
    // Killed inside the transaction: the history as it was; after its commit: merged, the twin not yet forgotten.
    expect(await cliJson<SnapshotRow[]>(ctx.cli('log', ctx.root))).toHaveLength(point === 'twin-merging' ? 2 : 4);
    const opened = await runCli(ctx.cli('open', ctx.root, '--json'));
    expect(opened.code).toBe(0);
    await expectMerged(ctx);
  });

  it('leaves a twin whose index cannot be read as it is, and opens the folder', async () => {
    const ctx = await twins();
    const index = join(projectStoreDir(ctx.data, ctx.twinId), 'history.db');
    writeFileSync(index, 'not a SQLite file at all, just text standing in for a damaged index');
    const opened = await runCli(ctx.cli('open', ctx.root, '--json'));
    expect(opened.code).toBe(0);
    expect(opened.stderr.toString()).toContain(
      `The history recorded for ${ctx.twinRoot} is of ${ctx.root} too (one folder, spelled two ways), but could not be read`,
    );
    expect((await cliJson<Known[]>(ctx.cli('projects'))).map((p) => p.root).sort()).toEqual([ctx.root, ctx.twinRoot].sort());
    expect(readFileSync(index, 'utf8')).toContain('not a SQLite file');
    expect(await cliJson<SnapshotRow[]>(ctx.cli('log', ctx.root))).toHaveLength(2);
  });
});
