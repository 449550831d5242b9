import Database from 'better-sqlite3';
import type { ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PruneResult } from '../../../shared/contract/values.js';
import { projectIdOf } from '../../../electron/history/project/projectId.js';
import { cliJson, finished, runCli, startCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { referencedBlobsPresent, snapshotStates, thinnableHistory } from './pruneHelpers.js';

// Collection across real processes: a watcher recording files whose bytes are those of blobs a
// prune just left unreferenced, while `hindsight prune` runs again and again with no grace
// period; and a prune SIGKILLed during its transaction, between marking and deleting, and
// during its deletes. Every blob a version names is on disk at the end, verify is clean, and
// the next prune finishes the job. A prune applies its plan in chunks (HINDSIGHT_PRUNE_CHUNK_ROWS
// cuts these small histories into several): killed between two of them, every snapshot left
// restores what it did before; a change recorded while it waits (after its plan, between two
// chunks) is kept, and the prune plans again in its worker.

const contents = (i: number) => `version ${i} `.repeat(20);

/** A project with `edits` versions of four files, one snapshot every 30 hours, and a policy that thins all of it. */
async function oldHistory(edits: number) {
  const { root, dataDir } = await thinnableHistory('hindsight-collect-', edits, contents);
  return { root, dataDir, data: ['--data-dir', dataDir] };
}

function storeCounts(dataDir: string, root: string): { blobRows: number; marks: number; snapshots: number; files: number } {
  const storeDir = join(dataDir, 'projects', projectIdOf(root));
  const db = new Database(join(storeDir, 'history.db'), { readonly: true });
  try {
    const one = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    const files = readdirSync(join(storeDir, 'blobs'), { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).length;
    return {
      blobRows: one('SELECT COUNT(*) AS n FROM blobs'),
      marks: one('SELECT COUNT(*) AS n FROM blob_marks'),
      snapshots: one('SELECT COUNT(*) AS n FROM snapshots'),
      files,
    };
  } finally {
    db.close();
  }
}

/** Resolves when a child started with HINDSIGHT_STOP_AT says it stopped there. */
function stoppedAt(child: ChildProcess, point: string): Promise<void> {
  return new Promise((resolve) => child.stderr!.on('data', (chunk: Buffer) => chunk.toString().includes(`stopped at ${point}`) && resolve()));
}

describe('collection across processes', () => {
  it('a writer that found a blob in place while a prune collected it files the bytes again instead of naming a missing blob', async () => {
    const { root, dataDir, data } = await oldHistory(12);
    // The first prune marks old contents and, within the grace period, deletes nothing.
    await cliJson(['config', 'set', 'retention.graceMinutes', '60', ...data]);
    await cliJson<PruneResult>(['prune', root, '--json', ...data]);
    await cliJson(['config', 'set', 'retention.graceMinutes', '0', ...data]);
    // x0.txt gets the bytes of a marked blob back: the writer finds the blob file in place, and
    // stops before it commits; a prune collects that blob meanwhile; the writer then goes on.
    writeFileSync(join(root, 'x0.txt'), contents(4));
    const writer = startCli(['open', root, '--json', ...data], { HINDSIGHT_STOP_AT: 'record-commit' });
    const written = finished(writer);
    await stoppedAt(writer, 'record-commit');
    const collected = await cliJson<PruneResult>(['prune', root, '--json', ...data]);
    expect(collected.deletedBlobs).toBeGreaterThan(0);
    writer.kill('SIGCONT');
    expect((await written).code).toBe(0);
    expect(referencedBlobsPresent(dataDir, root)).toEqual([]);
    expect(await cliJson(['verify', root, '--json', ...data])).toMatchObject({ ok: true });
    expect((await runCli(['show', root, 'x0.txt', ...data])).stdout.toString()).toBe(contents(4));
  });

  it('a watcher recording the bytes of blobs being collected and a prune running again and again leave every named blob in place', async () => {
    const { root, dataDir, data } = await oldHistory(40);
    const watcher = startCli(['watch', root, '--json', '--quiet-ms', '10', '--max-group-ms', '50', ...data]);
    const watched = finished(watcher);
    await new Promise<void>((resolve) => watcher.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('"watching":true') && resolve()));
    let pruning = true;
    const writer = (async () => {
      // Old contents, again and again: each write names a blob some prune marked or collected.
      for (let i = 0; pruning; i++) {
        writeFileSync(join(root, `x${i % 4}.txt`), contents(i % 40));
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
    })();
    const results: PruneResult[] = [];
    for (let round = 0; round < 6; round++) results.push(await cliJson<PruneResult>(['prune', root, '--json', ...data]));
    pruning = false;
    await writer;
    watcher.kill('SIGTERM');
    expect((await watched).code).toBe(0);
    expect(results.reduce((sum, r) => sum + r.deletedBlobs, 0)).toBeGreaterThan(0);
    expect(referencedBlobsPresent(dataDir, root)).toEqual([]);
    expect(await cliJson(['verify', root, '--json', ...data])).toMatchObject({ ok: true });
    // What the disk holds now is recorded and readable.
    expect((await runCli(['open', root, ...data])).code).toBe(0);
    expect(await cliJson(['verify', root, '--json', ...data])).toMatchObject({ ok: true, missing: [], corrupt: [] });
    expect(referencedBlobsPresent(dataDir, root)).toEqual([]);
  });

  for (const point of ['transaction', 'marked', 'deleting'] as const) {
    it(`a prune killed ${point === 'transaction' ? 'inside its transaction' : point === 'marked' ? 'between marking and deleting' : 'during its deletes'} leaves a consistent history, and the next prune finishes`, async () => {
      const { root, dataDir, data } = await oldHistory(24);
      const before = storeCounts(dataDir, root);
      const child = startCli(['prune', root, '--json', ...data], { HINDSIGHT_STOP_AT: `prune-${point}` });
      const done = finished(child);
      await stoppedAt(child, `prune-${point}`);
      child.kill('SIGKILL');
      expect((await done).signal).toBe('SIGKILL');

      const killed = storeCounts(dataDir, root);
      if (point === 'transaction') expect(killed).toEqual(before);
      else expect(killed.snapshots).toBeLessThan(before.snapshots);
      if (point === 'marked') expect([killed.marks > 0, killed.files]).toEqual([true, before.files]);
      if (point === 'deleting') expect(killed.files).toBe(before.files - 1);
      expect(referencedBlobsPresent(dataDir, root)).toEqual([]);
      expect(await cliJson(['verify', root, '--json', ...data])).toMatchObject({ ok: true });

      await cliJson<PruneResult>(['prune', root, '--json', ...data]);
      const after = storeCounts(dataDir, root);
      expect(after.marks).toBe(0);
      expect(after.files).toBe(after.blobRows);
      expect(after.blobRows).toBeLessThan(before.blobRows);
      expect(referencedBlobsPresent(dataDir, root)).toEqual([]);
      expect(await cliJson(['verify', root, '--json', ...data])).toMatchObject({ ok: true });
    });
  }

  it('a prune killed between two of its chunks leaves every snapshot still there restoring what it did, and the next prune finishes the job', async () => {
    const { root, dataDir, data } = await oldHistory(24);
    const control = await oldHistory(24);
    await cliJson<PruneResult>(['prune', control.root, '--json', ...control.data]);
    const dbFile = join(dataDir, 'projects', projectIdOf(root), 'history.db');
    const before = storeCounts(dataDir, root);
    const states = snapshotStates(dbFile);
    const child = startCli(['prune', root, '--json', ...data], { HINDSIGHT_STOP_AT: 'prune-between-chunks', HINDSIGHT_PRUNE_CHUNK_ROWS: '3' });
    const done = finished(child);
    await stoppedAt(child, 'prune-between-chunks');
    child.kill('SIGKILL');
    expect((await done).signal).toBe('SIGKILL');

    const killed = storeCounts(dataDir, root);
    const expected = storeCounts(control.dataDir, control.root);
    expect(killed.snapshots).toBeLessThan(before.snapshots);
    expect(killed.snapshots).toBeGreaterThan(expected.snapshots);
    const left = snapshotStates(dbFile);
    for (const [id, state] of left) expect(state, `snapshot ${id}`).toBe(states.get(id));
    expect(referencedBlobsPresent(dataDir, root)).toEqual([]);
    expect(await cliJson(['verify', root, '--json', ...data])).toMatchObject({ ok: true });

    await cliJson<PruneResult>(['prune', root, '--json', ...data]);
    const after = storeCounts(dataDir, root);
    expect(after).toEqual(expected);
    for (const [id, state] of snapshotStates(dbFile)) expect(state, `snapshot ${id}`).toBe(states.get(id));
    expect(referencedBlobsPresent(dataDir, root)).toEqual([]);
    expect(await cliJson(['verify', root, '--json', ...data])).toMatchObject({ ok: true });
  });

  for (const point of ['planned', 'between-chunks'] as const) {
    it(`a change recorded ${point === 'planned' ? 'after the plan was made' : 'between two chunks'} is kept: the prune plans again in its worker and finishes`, async () => {
      const { root, dataDir, data } = await oldHistory(24);
      const trace = join(tempDir('hindsight-trace-'), 'trace.jsonl');
      const child = startCli(['prune', root, '--json', ...data], {
        HINDSIGHT_STOP_AT: `prune-${point}`,
        HINDSIGHT_PRUNE_CHUNK_ROWS: '3',
        HINDSIGHT_TRACE: trace,
      });
      const done = finished(child);
      await stoppedAt(child, `prune-${point}`);
      writeFileSync(join(root, 'x1.txt'), 'recorded while the prune waited');
      expect((await runCli(['open', root, ...data])).code).toBe(0);
      child.kill('SIGCONT');
      expect((await done).code).toBe(0);

      const counters = JSON.parse(readFileSync(trace, 'utf8').trim().split('\n').at(-1)!) as Record<string, number>;
      expect([counters['prune.plans'] ?? 0, counters['prune.workerPlans'], counters['prune.replans']]).toEqual([0, 2, 1]);
      expect((await runCli(['show', root, 'x1.txt', ...data])).stdout.toString()).toBe('recorded while the prune waited');
      expect(referencedBlobsPresent(dataDir, root)).toEqual([]);
      expect(await cliJson(['verify', root, '--json', ...data])).toMatchObject({ ok: true });
      // Nothing was left for a next prune.
      expect(await cliJson<PruneResult>(['prune', root, '--json', ...data])).toMatchObject({ snapshots: 0, versions: 0 });
    });
  }
});
