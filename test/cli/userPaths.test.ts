import { describe, expect, it } from 'vitest';
import { readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliJson, runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { writeTree } from '../helpers/writeTree.js';

// Paths as people type them: `./builtin/add.c`, an absolute path inside the project, a path
// relative to the folder they are in. Each reaches the same history; nothing outside the
// project root is ever accepted, whichever way it is spelled.

async function project() {
  const root = tempDir();
  writeTree(root, { 'builtin/add.c': 'int add(void);\n', 'README.md': 'readme\n' });
  const dataDir = tempDir('hindsight-data-');
  await cliJson(['open', root, '--data-dir', dataDir]);
  return { root, dataDir };
}

async function versionPaths(args: string[], cwd: string, dataDir: string): Promise<{ code: number | null; stderr: string; versions: number }> {
  const result = await runCli(['log', ...args, '--data-dir', dataDir, '--json'], {}, { cwd });
  return { code: result.code, stderr: result.stderr, versions: result.code === 0 ? (JSON.parse(result.stdout.toString('utf8')) as unknown[]).length : 0 };
}

describe('paths typed on the command line', () => {
  it('accepts ./path, an absolute path inside the project, and a path relative to the current folder inside it', async () => {
    const { root, dataDir } = await project();
    const outside = tempDir();
    const ok = { code: 0, stderr: '', versions: 1 };
    expect(await versionPaths([root, './builtin/add.c'], outside, dataDir)).toEqual(ok);
    expect(await versionPaths([root, 'builtin/add.c'], outside, dataDir)).toEqual(ok);
    expect(await versionPaths([root, join(root, 'builtin/add.c')], outside, dataDir)).toEqual(ok);
    expect(await versionPaths(['.', './builtin/add.c'], root, dataDir)).toEqual(ok);
    expect(await versionPaths(['..', 'add.c'], join(root, 'builtin'), dataDir)).toEqual(ok);
    expect(await versionPaths(['..', './add.c'], join(root, 'builtin'), dataDir)).toEqual(ok);
    expect(await versionPaths(['..', '../README.md'], join(root, 'builtin'), dataDir)).toEqual(ok);
    expect(await versionPaths([root, 'builtin//add.c'], outside, dataDir)).toEqual(ok);
  });

  it('resolves a project reached through a symlink, and a file that no longer exists', async () => {
    const { root, dataDir } = await project();
    const links = tempDir();
    symlinkSync(root, join(links, 'proj'));
    const viaLink = join(links, 'proj');
    const ok = { code: 0, stderr: '', versions: 1 };
    expect(await versionPaths([root, join(viaLink, 'builtin/add.c')], links, dataDir)).toEqual(ok);
    expect(await versionPaths([viaLink, 'add.c'], join(viaLink, 'builtin'), dataDir)).toEqual(ok);

    rmSync(join(root, 'builtin/add.c'));
    await cliJson(['open', root, '--data-dir', dataDir]);
    expect(await versionPaths([root, join(realpathSync(root), 'builtin/add.c')], links, dataDir)).toMatchObject({ code: 0, versions: 2 });
  });

  it('refuses every path that lands outside the project root, with one clear line', async () => {
    const { root, dataDir } = await project();
    const elsewhere = tempDir();
    writeFileSync(join(elsewhere, 'secret.txt'), 'not yours\n');
    symlinkSync(elsewhere, join(root, 'builtin', 'escape'));
    for (const [path, cwd] of [
      [join(elsewhere, 'secret.txt'), elsewhere],
      ['../secret.txt', root],
      ['../../etc/passwd', join(root, 'builtin')],
      ['builtin/escape/secret.txt', elsewhere],
      ['./escape/secret.txt', join(root, 'builtin')],
    ] as const) {
      const result = await runCli(['show', root, path, '--data-dir', dataDir], {}, { cwd });
      expect([result.code, result.stdout.toString('utf8')], `${path} from ${cwd}`).toEqual([1, '']);
      expect(result.stderr).toMatch(/^hindsight show: .* is not inside the project folder .*\n$/);
    }
    const itself = await runCli(['show', root, '.', '--data-dir', dataDir], {}, { cwd: root });
    expect(itself.code).toBe(1);
    expect(itself.stderr).toMatch(/is the project folder itself/);
  });

  it('restores through a typed path, and takes a typed folder for --path', async () => {
    const { root, dataDir } = await project();
    writeFileSync(join(root, 'builtin/add.c'), 'changed\n');
    const builtin = join(root, 'builtin');
    const versions = await cliJson<{ versionId: number; kind: string }[]>(['log', '..', './add.c', '--data-dir', dataDir], {}, { cwd: builtin });
    const baseline = versions.find((v) => v.kind === 'baseline')!;
    const restored = await runCli(['restore', '..', 'add.c', '--version', String(baseline.versionId), '--data-dir', dataDir], {}, { cwd: builtin });
    expect([restored.code, restored.stderr]).toEqual([0, '']);
    expect(readFileSync(join(root, 'builtin/add.c'), 'utf8')).toBe('int add(void);\n');

    writeFileSync(join(root, 'builtin/add.c'), 'changed again\n');
    writeFileSync(join(root, 'README.md'), 'changed readme\n');
    const preview = await cliJson<{ prefix: string | null; write: string[] }>(
      ['restore', root, '--snapshot', '1', '--path', './', '--dry-run', '--data-dir', dataDir],
      {},
      { cwd: builtin },
    );
    expect(preview.write).toEqual(['builtin/add.c']);
    expect(preview.prefix).toBe('builtin');
  });

  it('takes an empty argument as bad usage (exit 2), never as the current folder', async () => {
    const dataDir = tempDir('hindsight-data-');
    const cwd = tempDir();
    writeFileSync(join(cwd, 'file.txt'), 'x\n');
    for (const args of [
      ['open', ''],
      ['files', ''],
      ['log', '', 'x'],
      ['show', cwd, ''],
      ['restore', cwd, '--snapshot', '1', '--path', ''],
    ]) {
      const result = await runCli([...args, '--data-dir', dataDir], {}, { cwd });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/is empty\nUsage: hindsight /);
    }
    const projects = await cliJson<unknown[]>(['projects', '--data-dir', dataDir]);
    expect(projects).toEqual([]);
  });
});
