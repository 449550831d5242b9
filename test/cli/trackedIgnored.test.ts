import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FileEntry, OpenResult } from '../../shared/history.js';
import { git, makeRepo, write } from '../history/git/gitFixture.js';
import { cliJson, runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';

// A file git tracks is recorded even when a .gitignore pattern matches it (git keeps tracking a
// committed .env); the first copy says how many paths ignore rules left out, and `hindsight
// ignored` lists them. A real repository, the real CLI.

function repoWithIgnoredButTracked(): string {
  const root = makeRepo({ '.gitignore': '.env\n.flaskenv\nbuild/\nnode_modules/\n', 'app.py': 'print(1)\n' });
  write(root, '.env', 'SECRET=committed on purpose\n');
  write(root, '.flaskenv', 'FLASK_APP=app\n');
  write(root, 'build/keep.txt', 'vendored\n');
  git(root, 'add', '-f', '.env', '.flaskenv', 'build/keep.txt');
  git(root, 'commit', '-qm', 'tracked on purpose');
  write(root, 'build/out.o', 'object\n');
  write(root, 'node_modules/x/index.js', 'x\n');
  return root;
}

describe('ignore rules and the files git tracks', () => {
  it('records tracked files a .gitignore matches, counts what was left out, and lists it', async () => {
    const root = repoWithIgnoredButTracked();
    const data = ['--data-dir', tempDir('hindsight-data-')];
    const opened = await runCli(['open', root, ...data]);
    expect(opened.code).toBe(0);
    expect(opened.stdout.toString()).toContain(`Left out by ignore rules: 2 paths (hindsight ignored ${root} lists them`);

    const files = await cliJson<FileEntry[]>(['files', root, '--json', ...data]);
    expect(files.map((f) => f.path).sort()).toEqual(['.env', '.flaskenv', '.gitignore', 'app.py', 'build/keep.txt']);
    expect(await cliJson<string[]>(['ignored', root, '--json', ...data])).toEqual(['build/out.o', 'node_modules/']);
    expect((await runCli(['ignored', root, ...data])).stdout.toString()).toBe('build/out.o\nnode_modules/\n');

    // A tracked ignored file keeps being recorded; an untracked one stays out.
    writeFileSync(join(root, '.env'), 'SECRET=changed\n');
    writeFileSync(join(root, 'build/out.o'), 'object changed\n');
    const again = await cliJson<OpenResult>(['open', root, '--json', ...data]);
    expect(again.ignored).toBe(2);
    const versions = await cliJson<{ hash: string | null }[]>(['log', root, '.env', '--json', ...data]);
    expect(versions).toHaveLength(2);
    const out = await runCli(['log', root, 'build/out.o', ...data]);
    expect(out.code).not.toBe(0);
  });
});
