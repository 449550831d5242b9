import { describe, expect, it, onTestFinished } from 'vitest';
import { readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEngine } from '../../electron/history/historyEngine.js';
import { projectIdOf } from '../../electron/history/project/projectId.js';
import { setSetting } from '../../electron/history/config/projectEdits.js';
import { cliJson, runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { seededBytes, writeTree, type TreeSpec } from '../helpers/writeTree.js';

// A first copy of more files or bytes than the large-folder settings waits for confirmation: the
// CLI shows what was found, keeps nothing and exits 2 without --yes; the engine's typed error
// carries the numbers the viewer needs to ask.

function folderOf(files: number, size: number): string {
  const root = tempDir();
  const spec: TreeSpec = {};
  for (let i = 0; i < files; i++) spec[`d${i % 8}/f${i}.bin`] = seededBytes(i + 1, size);
  writeTree(root, spec);
  return realpathSync(root);
}

function blobFiles(dataDir: string, root: string): string[] {
  const blobs = join(dataDir, 'projects', projectIdOf(root), 'blobs');
  return readdirSync(blobs, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => d.name);
}

describe('a large first copy', () => {
  it('needs --yes past largeFolderFiles: without it, it shows what it found, keeps nothing and exits 2', async () => {
    const dataDir = tempDir('hindsight-data-');
    const data = ['--data-dir', dataDir];
    expect(await cliJson(['config', 'get', 'largeFolderFiles', ...data])).toBe(200_000);
    expect(await cliJson(['config', 'get', 'largeFolderBytes', ...data])).toBe(20 * 1024 ** 3);
    for (const bad of ['0', '1.5', 'many', '[]']) {
      const refused = await runCli(['config', 'set', 'largeFolderFiles', bad, ...data]);
      expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining('not a valid largeFolderFiles')]);
    }
    await cliJson(['config', 'set', 'largeFolderFiles', '50', ...data]);
    const root = folderOf(80, 100);

    const asked = await runCli(['open', root, ...data]);
    expect(asked.code).toBe(2);
    expect(asked.stdout.toString()).toBe('');
    const found = /is large: (\d+) files/.exec(asked.stderr);
    expect(Number(found?.[1])).toBeGreaterThan(50);
    expect(asked.stderr).toContain('past the limit of 50 files');
    expect(asked.stderr).toContain('--yes');
    expect(blobFiles(dataDir, root)).toEqual([]);
    expect(await cliJson<unknown[]>(['projects', ...data])).toEqual([]);
    expect((await runCli(['log', root, ...data])).stderr).toMatch(/no history yet/);

    expect(await cliJson(['open', root, '--yes', ...data])).toMatchObject({ firstCopy: true, files: 80 });
    // Confirmed once: later opens are rescans and ask nothing.
    expect(await cliJson(['open', root, ...data])).toMatchObject({ firstCopy: false, files: 80 });
  });

  it('needs confirmation past largeFolderBytes too; the typed error carries the numbers for the viewer', async () => {
    const engine = new HistoryEngine(tempDir('hindsight-data-'));
    onTestFinished(() => engine.close());
    await engine.config.editConfig(setSetting('largeFolderBytes', 100_000));
    const root = folderOf(24, 10_000);

    const error = await engine.open(root).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CONFIRM_LARGE_FOLDER', details: { root, limitFiles: 200_000, limitBytes: 100_000 } });
    const { files, bytes } = (error as { details: { files: number; bytes: number } }).details;
    expect(bytes).toBeGreaterThan(100_000);
    expect(bytes).toBe(files * 10_000);
    expect(engine.store(engine.locate(root)).index.snapshotReads.baselineId()).toBeUndefined();

    expect(await engine.open(root, { confirmLarge: true })).toMatchObject({ firstCopy: true, files: 24 });
  });
});
