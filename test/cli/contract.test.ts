import { describe, expect, it, onTestFinished } from 'vitest';
import { spawn } from 'node:child_process';
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, cliJson, finished, runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { sha256, writeTree } from '../helpers/writeTree.js';

// The command-line contract other tools rely on: JSON shapes, exit codes, the trace line.

describe('hindsight CLI', () => {
  it('open, files, log, show and restore speak the documented JSON', async () => {
    const root = tempDir();
    writeTree(root, { 'src/main.sh': { data: '#!/bin/sh\n', mode: 0o755 }, 'README.md': 'hello\n', link: { link: 'README.md' } });
    const dataDir = tempDir('hindsight-data-');
    const trace = join(tempDir(), 'trace.jsonl');

    const opened = await cliJson<Record<string, unknown>>(['open', root, '--data-dir', dataDir], { HINDSIGHT_TRACE: trace });
    expect(Object.keys(opened).sort()).toEqual(expect.arrayContaining(['blobs', 'bytes', 'files', 'firstCopy', 'ms', 'projectId', 'root']));
    expect(opened).toMatchObject({ root: realpathSync(root), files: 3, firstCopy: true });
    expect(opened.projectId).toMatch(/^[0-9a-f]{32}$/);
    const counters = JSON.parse(readFileSync(trace, 'utf8').trim().split('\n').at(-1)!);
    expect(counters['copy.files']).toBe(2);
    expect(counters['copy.maxInFlight']).toBeGreaterThanOrEqual(1);

    const files = await cliJson<unknown[]>(['files', root, '--data-dir', dataDir]);
    expect(files).toEqual([
      { path: 'README.md', type: 'file', hash: sha256('hello\n'), mode: 0o644, size: 6 },
      { path: 'link', type: 'symlink', hash: sha256('README.md'), mode: expect.any(Number), size: 9, target: 'README.md' },
      { path: 'src/main.sh', type: 'file', hash: sha256('#!/bin/sh\n'), mode: 0o755, size: 10 },
    ]);

    const log = await cliJson<Record<string, unknown>[]>(['log', root, '--data-dir', dataDir]);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ snapshotId: 1, kind: 'baseline', files: 3 });
    expect(typeof log[0]!.at).toBe('number');

    writeFileSync(join(root, 'README.md'), 'changed\n');
    const versions = await cliJson<Record<string, unknown>[]>(['log', root, 'README.md', '--data-dir', dataDir]);
    expect(versions).toEqual([
      expect.objectContaining({ versionId: expect.any(Number), snapshotId: 1, hash: sha256('hello\n'), mode: 0o644, size: 6, kind: 'baseline' }),
    ]);
    const show = await runCli(['show', root, 'README.md', '--version', String(versions[0]!.versionId), '--data-dir', dataDir]);
    expect(show.stdout.toString('utf8')).toBe('hello\n');

    const restore = await runCli(['restore', root, 'README.md', '--version', String(versions[0]!.versionId), '--data-dir', dataDir]);
    expect(restore.code).toBe(0);
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toBe('hello\n');
    const after = await cliJson<{ kind: string; hash: string | null }[]>(['log', root, 'README.md', '--data-dir', dataDir]);
    expect(after.map((v) => v.kind)).toEqual(['baseline', 'change', 'restore']);
    expect(after[1]!.hash).toBe(sha256('changed\n'));
  });

  it('exits 2 on bad usage and 1 on a failure, with one clear line on stderr', async () => {
    const dataDir = tempDir('hindsight-data-');
    expect((await runCli(['frobnicate'])).code).toBe(2);
    expect((await runCli(['open'])).code).toBe(2);
    expect((await runCli(['open', '/tmp', '--no-such-flag'])).code).toBe(2);
    expect((await runCli(['files', '/tmp', '--at', 'yesterday', '--data-dir', dataDir])).code).toBe(2);
    const missing = await runCli(['open', join(tempDir(), 'nope'), '--data-dir', dataDir]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/does not exist/);
    const never = tempDir();
    const notOpened = await runCli(['log', never, '--data-dir', dataDir]);
    expect(notOpened.code).toBe(1);
    expect(notOpened.stderr).toMatch(/no history yet/);
  });
});

describe('the built CLI as installed', () => {
  // Tests usually point the copy workers at the built worker (HINDSIGHT_COPY_WORKER); a user's
  // install has no such variable: the CLI must find what was built beside it on its own.
  const installEnv = () => {
    const env = { ...process.env };
    delete env.HINDSIGHT_COPY_WORKER;
    return env;
  };

  it('finds its copy worker beside itself', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'a', 'b/c.txt': 'c' });
    const child = spawn(process.execPath, [CLI, 'open', root, '--data-dir', tempDir('hindsight-data-'), '--json'], { env: installEnv() });
    const result = await finished(child);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout.toString('utf8'))).toMatchObject({ files: 2, firstCopy: true });
  });

  it('serves the built viewer without being told where it is', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--json', '--data-dir', tempDir('hindsight-data-')], { env: installEnv() });
    onTestFinished(() => {
      child.kill('SIGTERM');
    });
    const firstLine = await new Promise<string>((resolve, reject) => {
      let text = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        if (text.includes('\n')) resolve(text.split('\n')[0]!);
      });
      child.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
    });
    const { url } = JSON.parse(firstLine) as { url: string };
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/<html/i);
  });
});
