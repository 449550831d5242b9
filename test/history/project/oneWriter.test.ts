import { describe, expect, it, onTestFinished } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { projectIdOf } from '../../../electron/history/project/projectId.js';
import { blobPath } from '../../../electron/history/store/storeLayout.js';
import { finished, startCli, type CliResult } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { seededBytes, sha256, writeTree, type TreeSpec } from '../../helpers/writeTree.js';
import { until } from '../../helpers/until.js';

// One writer per project at a time, across processes, with real `hindsight` processes. To make
// "at once" certain rather than likely, the first is stopped (SIGSTOP) in the middle of its work,
// the second is started, and the first is let go (SIGCONT) only once the second has said it waits
// for it, or has finished without waiting (the failure this guards against).

const FILES = 800;
const pathOf = (i: number) => `d${i % 20}/f${i}.txt`;

function project(seed: number): { root: string; spec: TreeSpec } {
  const root = tempDir();
  const spec: TreeSpec = {};
  for (let i = 0; i < FILES; i++) spec[pathOf(i)] = seededBytes(seed + i, 300 + (i % 200));
  writeTree(root, spec);
  return { root, spec };
}

/** Polls the disk (no time limit of its own: the test's timeout is the limit). */

function blobsUnder(dataDir: string, root: string): string[] {
  const blobs = join(dataDir, 'projects', projectIdOf(root), 'blobs');
  if (!existsSync(blobs)) return [];
  return readdirSync(blobs, { recursive: true }).map(String);
}

/** The history as the processes left it, read in this process. */
function history(dataDir: string): HistoryEngine {
  const engine = new HistoryEngine(dataDir);
  onTestFinished(() => engine.close());
  return engine;
}

interface Running {
  child: ChildProcess;
  result: Promise<CliResult>;
  stderr: () => string;
}

function start(args: string[]): Running {
  const child = startCli([...args, '--json']);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const result = finished(child);
  onTestFinished(() => {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  });
  return { child, result, stderr: () => stderr };
}

/** Starts the second writer while the first is stopped; lets the first go once the second waits or is done. */
async function second(first: Running, args: string[]): Promise<{ second: Running; waited: boolean }> {
  first.child.kill('SIGSTOP');
  if (first.child.exitCode !== null) throw new Error(`the first writer ended (${first.child.exitCode}) before it was stopped midway: give it more files`);
  const other = start(args);
  let done = false;
  void other.result.then(() => (done = true));
  await until(() => done || other.stderr().includes('waiting for process'));
  return { second: other, waited: !done };
}

describe('one writer per project across processes', () => {
  it('two first copies at once record one baseline: the second waits, then finds it', async () => {
    const { root } = project(1);
    const dataDir = tempDir('hindsight-data-');
    const args = ['open', root, '--data-dir', dataDir];
    const first = start(args);
    await until(() => blobsUnder(dataDir, root).some((p) => p.includes('/')));
    const { second: other, waited } = await second(first, args);
    first.child.kill('SIGCONT');
    const [a, b] = await Promise.all([first.result, other.result]);

    expect([a.code, b.code, a.stderr]).toEqual([0, 0, '']);
    expect(waited).toBe(true);
    expect(b.stderr).toContain(`waiting for process ${first.child.pid}, which is writing this history`);
    expect(JSON.parse(a.stdout.toString())).toMatchObject({ firstCopy: true, files: FILES });
    expect(JSON.parse(b.stdout.toString())).toMatchObject({ firstCopy: false, files: FILES });
    const reader = history(dataDir);
    expect(reader.log(reader.locate(root)).map((s) => s.kind)).toEqual(['baseline']);
  });

  it('two rescans at once record each change once', async () => {
    const { root } = project(2);
    const dataDir = tempDir('hindsight-data-');
    const baseline = new HistoryEngine(dataDir);
    await baseline.open(root);
    baseline.close();
    const newBlobs: string[] = [];
    for (let i = 0; i < FILES; i++) {
      const bytes = seededBytes(50_000 + i, 400 + (i % 300));
      writeFileSync(join(root, pathOf(i)), bytes);
      newBlobs.push(blobPath(join(dataDir, 'projects', projectIdOf(root), 'blobs'), sha256(bytes)));
    }
    const args = ['open', root, '--data-dir', dataDir];
    const first = start(args);
    await until(() => newBlobs.some((p) => existsSync(p)));
    const { second: other, waited } = await second(first, args);
    first.child.kill('SIGCONT');
    const [a, b] = await Promise.all([first.result, other.result]);

    expect([a.code, b.code]).toEqual([0, 0]);
    expect(waited).toBe(true);
    const engine = history(dataDir);
    const projectId = engine.locate(root);
    const kinds = engine.log(projectId).map((s) => s.kind);
    expect(kinds.filter((k) => k === 'change')).toHaveLength(1);
    for (let i = 0; i < FILES; i += 97) expect(engine.versions(projectId, pathOf(i)).map((v) => v.kind)).toEqual(['baseline', 'change']);
  });

  it('takes over from a writer killed with SIGKILL: one baseline, no temps left, every blob sound', async () => {
    const { root } = project(3);
    const dataDir = tempDir('hindsight-data-');
    const args = ['open', root, '--data-dir', dataDir];
    const first = start(args);
    await until(() => blobsUnder(dataDir, root).some((p) => p.includes('/')));
    const { second: other, waited } = await second(first, args);
    expect(waited).toBe(true);
    first.child.kill('SIGKILL');
    await first.result;
    const b = await other.result;

    expect(b.code).toBe(0);
    expect(JSON.parse(b.stdout.toString())).toMatchObject({ firstCopy: true, files: FILES });
    expect(blobsUnder(dataDir, root).filter((p) => p.includes('incoming-'))).toEqual([]);
    const engine = history(dataDir);
    const projectId = engine.locate(root);
    expect(engine.log(projectId).map((s) => s.kind)).toEqual(['baseline']);
    expect(await engine.verify(projectId)).toMatchObject({ ok: true });
  });
});
