import { createHash } from 'node:crypto';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { gitVersions } from '../../../electron/history/git/gitVersions.js';
import type { GitVersions } from '../../../shared/git.js';
import type { OpenResult, VersionInfo } from '../../../shared/history.js';
import { cliJson } from '../../helpers/runCli.js';
import { git, makeRepo, tempDir, write } from './gitFixture.js';

// A file in a git repository shows its committed (HEAD) version as a comparison point, and its
// staged (index) version when that differs; the CLI says the same.

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

function engineFor(): HistoryEngine {
  const engine = new HistoryEngine(tempDir('data'));
  onTestFinished(() => engine.close());
  return engine;
}

describe('git versions of a file', () => {
  it('shows HEAD, and the index only when it differs', async () => {
    const root = makeRepo({ 'a.txt': 'committed\n', 'same.txt': 'same\n', 'tool.sh': '#!/bin/sh\n' });
    chmodSync(join(root, 'tool.sh'), 0o755);
    git(root, 'add', 'tool.sh');
    git(root, 'commit', '-qm', 'exec');
    writeFileSync(join(root, 'a.txt'), 'staged\n');
    git(root, 'add', 'a.txt');
    writeFileSync(join(root, 'a.txt'), 'on disk\n');
    write(root, 'new.txt', 'only staged\n');
    git(root, 'add', 'new.txt');
    const engine = engineFor();
    const projectId = engine.locate(root); // never opened: git alone answers, no store is made
    const head = git(root, 'rev-parse', 'HEAD');

    const a = await engine.gitVersions(projectId, 'a.txt');
    expect(a).toMatchObject({ repository: true, branch: 'main', commit: head });
    expect(a.head).toMatchObject({
      hash: sha256('committed\n'),
      size: 10,
      mode: 0o644,
      type: 'file',
      text: 'committed\n',
      blob: git(root, 'rev-parse', 'HEAD:a.txt'),
    });
    expect(a.index).toMatchObject({ hash: sha256('staged\n'), text: 'staged\n', blob: git(root, 'rev-parse', ':a.txt') });

    const same = await engine.gitVersions(projectId, 'same.txt');
    expect(same.head?.hash).toBe(sha256('same\n'));
    expect(same.index).toBeUndefined();

    expect((await engine.gitVersions(projectId, 'tool.sh')).head?.mode).toBe(0o755);

    const added = await engine.gitVersions(projectId, 'new.txt');
    expect(added.head).toBeUndefined();
    expect(added.index?.hash).toBe(sha256('only staged\n'));

    const untracked = await engine.gitVersions(projectId, 'nowhere.txt');
    expect(untracked).toEqual({ repository: true, branch: 'main', commit: head });
  });

  it('matches hashes with Hindsight versions, gives no text for binary contents, and works from a subfolder', async () => {
    const root = makeRepo({ 'sub/dir/a.txt': 'in a subfolder\n', 'sub/bin.dat': '' });
    writeFileSync(join(root, 'sub/bin.dat'), Buffer.from([0, 1, 2, 255]));
    git(root, 'commit', '-qam', 'binary');
    const engine = engineFor();
    const project = join(root, 'sub');
    const { projectId } = await engine.open(project);
    const versions = await engine.gitVersions(projectId, 'dir/a.txt');
    expect(versions.head?.hash).toBe(engine.versions(projectId, 'dir/a.txt')[0]!.hash);
    const binary = await engine.gitVersions(projectId, 'bin.dat');
    expect(binary.head).toMatchObject({ size: 4, hash: sha256(Buffer.from([0, 1, 2, 255])) });
    expect(binary.head?.text).toBeUndefined();
  });

  it('shows a blob past the allowance by size, without hash or text', async () => {
    const root = makeRepo({ 'big.txt': 'x'.repeat(10_000) });
    const engine = engineFor();
    const versions = await gitVersions(engine.store(engine.locate(root)).git, 'big.txt', 4096);
    expect(versions.head).toEqual({ blob: git(root, 'rev-parse', 'HEAD:big.txt'), hash: null, size: 10_000, mode: 0o644, type: 'file' });
  });

  it('says a plain folder is not a repository', async () => {
    const folder = tempDir('plain');
    write(folder, 'a.txt', 'a');
    const engine = engineFor();
    expect(await engine.gitVersions(engine.locate(folder), 'a.txt')).toEqual({ repository: false, branch: null, commit: null });
  });

  it('reports branch and head through the CLI: open, log and git-versions', async () => {
    const root = makeRepo({ 'a.txt': 'one\n' });
    const data = tempDir('cli-data');
    const head = git(root, 'rev-parse', 'HEAD');
    const opened = await cliJson<OpenResult>(['open', root, '--data-dir', data]);
    expect(opened.git).toEqual({ repository: true, branch: 'main', head });
    const log = await cliJson<VersionInfo[]>(['log', root, 'a.txt', '--data-dir', data]);
    expect(log[0]).toMatchObject({ branch: 'main', head });
    writeFileSync(join(root, 'a.txt'), 'two\n');
    git(root, 'add', 'a.txt');
    const versions = await cliJson<GitVersions>(['git-versions', root, 'a.txt', '--data-dir', data]);
    expect(versions).toMatchObject({ repository: true, branch: 'main', commit: head, head: { hash: sha256('one\n') }, index: { hash: sha256('two\n') } });

    const plain = tempDir('plain');
    write(plain, 'x.txt', 'x');
    expect((await cliJson<OpenResult>(['open', plain, '--data-dir', data])).git).toBe(false);
  });
});

describe('git versions of a folder never opened', () => {
  it('makes no history store for it', async () => {
    const folder = tempDir('plain');
    write(folder, 'a.txt', 'a');
    const engine = engineFor();
    await engine.gitVersions(engine.locate(folder), 'a.txt');
    expect(existsSync(join(engine.dataDir, 'projects'))).toBe(false);
  });
});
