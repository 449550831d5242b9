import { describe, expect, it, onTestFinished } from 'vitest';
import { readdirSync, chmodSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { HindsightError } from '../../../shared/errors.js';
import { runCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

async function project(spec: Parameters<typeof writeTree>[1]) {
  const root = tempDir();
  writeTree(root, spec);
  const dataDir = tempDir('hindsight-data-');
  const engine = new HistoryEngine(dataDir);
  onTestFinished(() => engine.close());
  const { projectId } = await engine.open(root);
  return { root, dataDir, engine, projectId };
}

describe('restoring one file', () => {
  it('records what the file holds before overwriting it, and can be undone', async () => {
    const { root, engine, projectId } = await project({ 'notes.md': { data: 'first draft\n', mode: 0o640 } });
    writeFileSync(join(root, 'notes.md'), 'work I have not saved anywhere else\n');
    chmodSync(join(root, 'notes.md'), 0o600);
    const baseline = engine.versions(projectId, 'notes.md')[0]!;
    const result = await engine.restoreFile(projectId, 'notes.md', baseline.versionId);

    expect(readFileSync(join(root, 'notes.md'), 'utf8')).toBe('first draft\n');
    expect(statSync(join(root, 'notes.md')).mode & 0o7777).toBe(0o640);
    const versions = engine.versions(projectId, 'notes.md');
    expect(versions.map((v) => v.kind)).toEqual(['baseline', 'change', 'restore']);
    expect(result.capturedSnapshotId).toBe(versions[1]!.snapshotId);
    const log = engine.log(projectId);
    expect(log.at(-1)).toMatchObject({ kind: 'restore', snapshotId: result.snapshotId });

    // Undo: restore the captured version; the unsaved work comes back exactly.
    await engine.restoreFile(projectId, 'notes.md', versions[1]!.versionId);
    expect(readFileSync(join(root, 'notes.md'), 'utf8')).toBe('work I have not saved anywhere else\n');
    expect(statSync(join(root, 'notes.md')).mode & 0o7777).toBe(0o600);
  });

  it('does not record the current contents twice when they are already the latest version', async () => {
    const { root, engine, projectId } = await project({ 'a.txt': 'one' });
    writeFileSync(join(root, 'a.txt'), 'two');
    const first = engine.versions(projectId, 'a.txt')[0]!;
    await engine.restoreFile(projectId, 'a.txt', first.versionId);
    const before = engine.versions(projectId, 'a.txt').length;
    await engine.restoreFile(projectId, 'a.txt', first.versionId);
    // The file already equals the latest version (the restore), so only the new restore is added.
    expect(engine.versions(projectId, 'a.txt').length).toBe(before + 1);
  });

  it('recreates a deleted file with its folders, and restores a link as a link', async () => {
    const { root, engine, projectId } = await project({ 'deep/er/file.txt': 'x', link: { link: 'deep/er/file.txt' } });
    rmSync(join(root, 'deep'), { recursive: true });
    rmSync(join(root, 'link'));
    await engine.restoreFile(projectId, 'deep/er/file.txt', engine.versions(projectId, 'deep/er/file.txt')[0]!.versionId);
    await engine.restoreFile(projectId, 'link', engine.versions(projectId, 'link')[0]!.versionId);
    expect(readFileSync(join(root, 'deep/er/file.txt'), 'utf8')).toBe('x');
    expect(lstatSync(join(root, 'link')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(root, 'link'))).toBe('deep/er/file.txt');
    // The deletion was recorded before the restore brought the file back.
    expect(engine.versions(projectId, 'deep/er/file.txt').map((v) => v.hash === null)).toEqual([false, true, false]);
  });

  for (const bad of ['../escape.txt', '/etc/passwd', 'a/../../escape.txt', 'a/./b', '']) {
    it(`refuses the path ${JSON.stringify(bad)}`, async () => {
      const { engine, projectId } = await project({ 'a/b': 'x' });
      const error = await engine.restoreFile(projectId, bad, 1).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HindsightError);
      expect(['PATH_OUTSIDE_ROOT', 'PATH_INVALID']).toContain((error as HindsightError).code);
    });
  }

  it('refuses to write through a parent folder that is a link leading outside the project', async () => {
    const outside = tempDir('hindsight-outside-');
    const { root, engine, projectId } = await project({ 'docs/readme.md': 'inside' });
    const version = engine.versions(projectId, 'docs/readme.md')[0]!;
    rmSync(join(root, 'docs'), { recursive: true });
    symlinkSync(outside, join(root, 'docs'));
    await expect(engine.restoreFile(projectId, 'docs/readme.md', version.versionId)).rejects.toMatchObject({
      code: 'PATH_OUTSIDE_ROOT',
    });
    expect(() => readFileSync(join(outside, 'readme.md'))).toThrow();
  });

  it('refuses a version of another file', async () => {
    const { root, engine, projectId } = await project({ 'a.txt': 'a', 'b.txt': 'b' });
    const ofB = engine.versions(projectId, 'b.txt')[0]!;
    await expect(engine.restoreFile(projectId, 'a.txt', ofB.versionId)).rejects.toMatchObject({ code: 'VERSION_NOT_FOUND' });
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('a');
  });

  it('through the CLI: exit 1 with one clear line for a path outside the folder, 2 for bad usage', async () => {
    const { root, dataDir } = await project({ 'a.txt': 'a' });
    const outside = await runCli(['restore', root, '../x', '--version', '1', '--data-dir', dataDir]);
    expect(outside.code).toBe(1);
    expect(outside.stderr).toMatch(/not inside the project folder/);
    expect(outside.stderr.trim().split('\n')).toHaveLength(1);
    const usage = await runCli(['restore', root, 'a.txt', '--data-dir', dataDir]);
    expect(usage.code).toBe(2);
  });

  it('replaces an empty folder standing where the file was (a change of type, as a snapshot restore does)', async () => {
    const { root, engine, projectId } = await project({ 'x/y.txt': 'y' });
    const version = engine.versions(projectId, 'x/y.txt')[0]!;
    rmSync(join(root, 'x'), { recursive: true });
    mkdirSync(join(root, 'x', 'y.txt'), { recursive: true });
    await engine.restoreFile(projectId, 'x/y.txt', version.versionId);
    expect(readdirSync(join(root, 'x'))).toEqual(['y.txt']);
    expect(readFileSync(join(root, 'x', 'y.txt'), 'utf8')).toBe('y');
  });
});

describe('restoring into a folder that is gone', () => {
  it('refuses, instead of making a new folder at the old path', async () => {
    const { root, engine, projectId } = await project({ 'a/b.txt': 'b' });
    const version = engine.versions(projectId, 'a/b.txt')[0]!;
    rmSync(root, { recursive: true });
    await expect(engine.restoreFile(projectId, 'a/b.txt', version.versionId)).rejects.toMatchObject({ code: 'FOLDER_VANISHED' });
    expect(() => statSync(root)).toThrow();
  });
});
