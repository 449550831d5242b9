import { describe, expect, it } from 'vitest';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { recorderAddress } from '../../../electron/history/recorderAddress.js';
import { askToFlush } from '../../../electron/history/recorderClient.js';
import { cliJson, finished, runCli, startCli } from '../../helpers/runCli.js';
import { until } from '../../helpers/until.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { groupOf, project, running, started, stateOf, stop, watchAll } from '../../helpers/watchAllProcess.js';

// The recorder's socket with real processes: a real `hindsight watch --all` (the built CLI) and a
// real `open` beside it. A quiet window of a minute means that a change is in history.db only
// because the open's ask made the recorder write it; the open's trace counts what it stat'ed.

const QUIET = ['--quiet-ms', '60000'];

interface Trace {
  [name: string]: number | undefined;
}

/** `open FOLDER` as a child process, with its trace counters. */
async function tracedOpen(root: string, data: string): Promise<{ code: number | null; trace: Trace; stderr: string }> {
  const file = join(tempDir('hindsight-trace-'), 'trace.jsonl');
  const result = await runCli(['open', root, '--data-dir', data, '--json'], { HINDSIGHT_TRACE: file });
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  return { code: result.code, trace: JSON.parse(lines[lines.length - 1]!) as Trace, stderr: result.stderr };
}

/** What the tree's walk did in a process: every lstat and listing of a file or folder of the project. */
function treeWork(trace: Trace): number {
  return (trace['walk.lstat'] ?? 0) + (trace['rescan.lstat'] ?? 0) + (trace['walk.readdir'] ?? 0) + (trace['walk.tree'] ?? 0);
}

function versionsOf(root: string, data: string, path: string): Promise<{ hash: string }[]> {
  return cliJson<{ hash: string }[]>(['log', root, path, '--data-dir', data]);
}

/** One line sent over a raw connection to the socket, and the answer line parsed. */
function rawAsk(socket: string, lines: string[]): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const client = connect(socket);
    const answers: unknown[] = [];
    let text = '';
    client.setEncoding('utf8');
    client.on('connect', () => client.write(lines.join('')));
    client.on('data', (chunk: string) => {
      text += chunk;
      const complete = text.split('\n');
      text = complete.pop()!;
      for (const line of complete) answers.push(JSON.parse(line));
      if (answers.length === lines.length) {
        client.destroy();
        resolve(answers);
      }
    });
    client.on('error', reject);
    client.on('close', () => reject(new Error(`the recorder closed the connection after ${answers.length} of ${lines.length} answers`)));
  });
}

describe('the recorder endpoint', () => {
  it('(a) an edit made just before open is in history when open returns, and the open stats no file of the tree', async () => {
    const data = tempDir('hindsight-data-');
    const root = await project(data, { 'a.txt': 'a0', 'sub/b.txt': 'b0', 'sub/c.txt': 'c0' });
    const watch = watchAll(data, QUIET);
    await watch.waitFor(started);
    writeFileSync(join(root, 'sub/b.txt'), 'b1');
    const opened = await tracedOpen(root, data);
    expect(opened.code).toBe(0);
    expect(treeWork(opened.trace)).toBe(0);
    expect(opened.trace['recorder.requests']).toBe(1);
    expect(opened.trace['open.rescansSkipped']).toBe(1);
    // The recorder wrote the index and said so: the open does not read every page of it again.
    expect(opened.trace['index.quickCheck']).toBeUndefined();
    // Written by the recorder because it was asked: its quiet window has a minute to go.
    expect(await versionsOf(root, data, 'sub/b.txt')).toHaveLength(2);
    await watch.waitFor(groupOf(root, 'sub/b.txt'));
  });

  it('(b) after SIGKILL open falls back to its rescan and is correct, and a new recorder replaces the stale socket', async () => {
    const data = tempDir('hindsight-data-');
    const root = await project(data, { 'a.txt': 'a0' });
    const first = watchAll(data, QUIET);
    await first.waitFor(started);
    await stop(first, 'SIGKILL');
    const { socket } = recorderAddress(data);
    expect(statSync(socket).isSocket()).toBe(true); // left behind by the killed recorder
    writeFileSync(join(root, 'a.txt'), 'a1');
    const opened = await tracedOpen(root, data);
    expect(opened.code).toBe(0);
    expect(opened.trace['open.rescansSkipped']).toBeUndefined();
    expect(treeWork(opened.trace)).toBeGreaterThan(0);
    expect(await versionsOf(root, data, 'a.txt')).toHaveLength(2);

    const second = watchAll(data, QUIET);
    await second.waitFor(started);
    writeFileSync(join(root, 'a.txt'), 'a2');
    const again = await tracedOpen(root, data);
    expect(again.trace['open.rescansSkipped']).toBe(1);
    expect(treeWork(again.trace)).toBe(0);
    expect(await versionsOf(root, data, 'a.txt')).toHaveLength(3);
  });

  it('(c) a recorder stopped by SIGSTOP is not waited for past the bound: open rescans and is correct', async () => {
    const data = tempDir('hindsight-data-');
    const root = await project(data, { 'a.txt': 'a0' });
    const watch = watchAll(data, QUIET);
    await watch.waitFor(started);
    watch.child.kill('SIGSTOP');
    try {
      writeFileSync(join(root, 'a.txt'), 'a1');
      const opened = await tracedOpen(root, data);
      expect(opened.code).toBe(0);
      expect(opened.trace['recorder.timeouts']).toBe(1);
      expect(opened.trace['open.rescansSkipped']).toBeUndefined();
      expect(treeWork(opened.trace)).toBeGreaterThan(0);
      expect(await versionsOf(root, data, 'a.txt')).toHaveLength(2);
    } finally {
      watch.child.kill('SIGCONT');
    }
  });

  it('(d) a second watch --all on the same data folder refuses, naming the first, which goes on answering', async () => {
    const data = tempDir('hindsight-data-');
    const root = await project(data, { 'a.txt': 'a0' });
    const first = watchAll(data, QUIET);
    await first.waitFor(started);
    // Killed after the test like every recorder here, should it record instead of refusing.
    const child = startCli(['watch', '--all', '--data-dir', data]);
    running.push(child);
    const second = await finished(child);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`hindsight watch: process ${first.child.pid} (watch --all) records the projects of this data folder already`);
    const opened = await tracedOpen(root, data);
    expect(opened.trace['open.rescansSkipped']).toBe(1);
    expect(running.filter((c) => c.exitCode === null)).toContain(first.child);
  });

  it('a project the recorder rescans instead of watching (the OS refused its watch) is rescanned by open itself', async () => {
    const data = tempDir('hindsight-data-');
    const root = await project(data, { 'a.txt': 'a0' });
    const watch = watchAll(data, QUIET, { HINDSIGHT_FAIL_AT: 'watch-setup:ENOSPC' });
    const refused = await watch.waitFor(stateOf(root, 'rescanning'));
    await watch.waitFor(started);
    expect(await askToFlush(data, refused.projectId!)).toMatchObject({ watching: true, rescanning: true });
    writeFileSync(join(root, 'a.txt'), 'a1');
    const opened = await tracedOpen(root, data);
    expect(opened.trace['open.rescansSkipped']).toBeUndefined();
    expect(treeWork(opened.trace)).toBeGreaterThan(0);
    expect(await versionsOf(root, data, 'a.txt')).toHaveLength(2);
  });

  it('(d2) serve beside a watch --all serves the viewer and leaves the recording to it, saying so', async () => {
    const data = tempDir('hindsight-data-');
    const root = await project(data, { 'a.txt': 'a0' });
    const watch = watchAll(data, QUIET);
    await watch.waitFor(started);
    const serve = startCli(['serve', '--data-dir', data, '--renderer-dir', tempDir('hindsight-empty-')]);
    running.push(serve);
    const done = finished(serve);
    let stderr = '';
    serve.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await until(() => stderr.includes('not recording'), { what: 'serve saying it does not record' });
    expect(stderr).toContain(`hindsight serve: not recording: process ${watch.child.pid} (watch --all) records the projects of this data folder already`);
    const opened = await tracedOpen(root, data);
    expect(opened.trace['open.rescansSkipped']).toBe(1);
    serve.kill('SIGTERM');
    const result = await done;
    expect(result.code).toBe(0);
    expect(result.stdout.toString()).toMatch(/^Hindsight is serving the viewer at http:\/\/127\.0\.0\.1:\d+\//);
    expect(result.stdout.toString()).not.toContain(`Recording ${root}`);
  });

  it('(e) two data folders, two recorders: each answers only for its own projects', async () => {
    const [dataA, dataB] = [tempDir('hindsight-data-'), tempDir('hindsight-data-')];
    const rootA = await project(dataA, { 'a.txt': 'a0' });
    const rootB = await project(dataB, { 'b.txt': 'b0' });
    const [watchA, watchB] = [watchAll(dataA, QUIET), watchAll(dataB, QUIET)];
    await Promise.all([watchA.waitFor(started), watchB.waitFor(started)]);
    expect(recorderAddress(dataA).socket).not.toBe(recorderAddress(dataB).socket);
    const [idA, idB] = [watchA.lines.find((l) => l.root === rootA)!.projectId!, watchB.lines.find((l) => l.root === rootB)!.projectId!];
    expect(await askToFlush(dataA, idA)).toMatchObject({ watching: true, writtenThrough: expect.any(Number) });
    expect(await askToFlush(dataB, idB)).toMatchObject({ watching: true, writtenThrough: expect.any(Number) });
    expect(await askToFlush(dataA, idB)).toMatchObject({ watching: false });
    expect(await askToFlush(dataB, idA)).toMatchObject({ watching: false });
    for (const [root, data] of [
      [rootA, dataA],
      [rootB, dataB],
    ] as const) {
      const opened = await tracedOpen(root, data);
      expect(opened.trace['open.rescansSkipped']).toBe(1);
    }
  });

  it('(f) a malformed request and a wrong token get typed errors; the recorder goes on answering on the same connection', async () => {
    const data = tempDir('hindsight-data-');
    await project(data, { 'a.txt': 'a0' });
    const watch = watchAll(data, QUIET);
    await watch.waitFor(started);
    const { socket, tokenFile } = recorderAddress(data);
    expect(statSync(socket).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(socket)).mode & 0o777).toBe(0o700);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    const token = readFileSync(tokenFile, 'utf8').trim();
    const answers = await rawAsk(socket, [
      'not json\n',
      `${JSON.stringify({ token, ask: 'delete everything' })}\n`,
      `${JSON.stringify({ token: 'x'.repeat(token.length), ask: 'who' })}\n`,
      `${JSON.stringify({ ask: 'who' })}\n`,
      `${JSON.stringify({ token, ask: 'flush' })}\n`,
      `${JSON.stringify({ token, ask: 'who' })}\n`,
    ]);
    expect(answers.map((a) => (a as { error?: { code: string } }).error?.code ?? 'answered')).toEqual([
      'BAD_REQUEST',
      'BAD_REQUEST',
      'UNAUTHORIZED',
      'UNAUTHORIZED',
      'BAD_REQUEST',
      'answered',
    ]);
    expect(answers[5]).toEqual({ pid: watch.child.pid, command: 'watch --all' });
    // A line past the bound is refused and the connection closed; the recorder still answers others.
    const [tooLong] = await rawAsk(socket, ['x'.repeat(70 * 1024)]);
    expect(tooLong).toMatchObject({ error: { code: 'BAD_REQUEST' } });
    expect(await rawAsk(socket, [`${JSON.stringify({ token, ask: 'who' })}\n`])).toEqual([{ pid: watch.child.pid, command: 'watch --all' }]);
  });
});
