import { describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import type { CompactResult } from '../../../shared/contract/values.js';
import { refuseNewerStore, storedSchemaVersion } from '../../../electron/history/db/schemaVersion.js';
import { historyDbPath } from '../../../electron/history/store/storeLayout.js';
import { cliJson, finished, runCli, startCli } from '../../helpers/runCli.js';
import { blobFiles, olderStore, sourceText, storedSizes } from './olderStore.js';
import { until } from '../../helpers/until.js';

// `hindsight compact` as a real process: SIGKILLed with a compressed temp written and not yet
// renamed, or with a batch's files placed and its transaction not committed, it leaves every
// version readable, no half file under a blob's name, and the next run finishes the job;
// SIGINT stops it after its batch with what it converted kept; a reader caught between its look for
// the compressed file and its open of the raw one still reads the version. A store it compacted is refused by
// a Hindsight that knows an older schema, with the typed STORE_TOO_NEW, never read wrong.

function stoppedAt(child: ChildProcess, point: string): Promise<void> {
  return new Promise((resolve) => child.stderr!.on('data', (chunk: Buffer) => chunk.toString().includes(`stopped at ${point}`) && resolve()));
}

/** Resolves once the child is really stopped (its SIGSTOP taken): a signal sent before would be lost to the stop. */
async function isStopped(child: ChildProcess): Promise<void> {
  await until(() => /^\d+ \(.*\) T/.test(readFileSync(`/proc/${child.pid}/stat`, 'utf8')), { everyMs: 5 });
}

async function olderProject(files = 5) {
  const spec: Record<string, string> = {};
  for (let i = 0; i < files; i++) spec[`f${i}.ts`] = sourceText(500 + i, 90);
  const made = await olderStore(spec);
  return { ...made, data: ['--data-dir', made.dataDir] };
}

describe('compact across processes', () => {
  for (const point of ['compact-temp-written', 'compact-placed'] as const) {
    it(`killed ${point === 'compact-temp-written' ? 'before its first rename' : 'before its batch committed'}: every version reads, no half file is a blob, and the next run finishes`, async () => {
      const { root, storeDir, blobsDir, data } = await olderProject();
      const child = startCli(['compact', root, '--json', ...data], { HINDSIGHT_STOP_AT: point });
      const done = finished(child);
      await stoppedAt(child, point);
      child.kill('SIGKILL');
      expect((await done).signal).toBe('SIGKILL');

      const temps = blobFiles(blobsDir).filter((f) => f.includes('incoming-'));
      expect(temps.length).toBe(point === 'compact-temp-written' ? 1 : 0);
      // Nothing was recorded: the transaction never committed.
      expect(Object.values(storedSizes(storeDir)).every((size) => size === null)).toBe(true);
      expect(await cliJson(['verify', root, ...data])).toMatchObject({ ok: true });

      const next = await cliJson<CompactResult>(['compact', root, ...data]);
      expect(next).toMatchObject({
        candidates: 5,
        converted: point === 'compact-placed' ? 4 : 5,
        alreadyCompressed: point === 'compact-placed' ? 1 : 0,
        stopped: false,
      });
      expect(blobFiles(blobsDir).filter((f) => f.includes('incoming-'))).toEqual([]);
      expect(blobFiles(blobsDir).every((f) => f.endsWith('.zst'))).toBe(true);
      expect(Object.values(storedSizes(storeDir)).every((size) => size !== null)).toBe(true);
      expect(await cliJson(['verify', root, ...data])).toMatchObject({ ok: true });
      for (let i = 0; i < 5; i++) expect((await runCli(['show', root, `f${i}.ts`, ...data])).stdout.toString()).toBe(sourceText(500 + i, 90));
    });
  }

  it('stops at SIGINT after its batch, keeps what it converted, exits 130, and the next run goes on', async () => {
    // 70 blobs: two batches (64 at most each); the signal comes while the first one is written.
    const { root, storeDir, data } = await olderProject(70);
    const child = startCli(['compact', root, '--json', ...data], { HINDSIGHT_STOP_AT: 'compact-placed' });
    const done = finished(child);
    await stoppedAt(child, 'compact-placed');
    await isStopped(child);
    child.kill('SIGINT');
    child.kill('SIGCONT');
    const stopped = await done;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain('stopped by SIGINT; what was compacted is kept; run compact again to go on.');
    const result = JSON.parse(stopped.stdout.toString()) as CompactResult;
    expect(result).toMatchObject({ stopped: true, candidates: 70, looked: 64, converted: 64 });
    expect(Object.values(storedSizes(storeDir)).filter((size) => size !== null).length).toBe(64);
    expect(await cliJson<CompactResult>(['compact', root, ...data])).toMatchObject({ candidates: 6, converted: 6, stopped: false });
    expect(await cliJson(['verify', root, ...data])).toMatchObject({ ok: true });
  });

  it('a reader that looked for the compressed file before a compaction placed it, and for the raw one after it was removed, still reads the version', async () => {
    const { root, data } = await olderProject(1);
    const reader = startCli(['show', root, 'f0.ts', ...data], { HINDSIGHT_STOP_AT: 'read-between-looks' });
    const read = finished(reader);
    await stoppedAt(reader, 'read-between-looks');
    await isStopped(reader);
    expect(await cliJson<CompactResult>(['compact', root, ...data])).toMatchObject({ converted: 1 });
    reader.kill('SIGCONT');
    const shown = await read;
    expect(shown.stderr).not.toContain('missing');
    expect(shown.code).toBe(0);
    expect(shown.stdout.toString()).toBe(sourceText(500, 90));
    expect(await cliJson(['verify', root, ...data])).toMatchObject({ ok: true });
  });

  it('two at once each report only what they placed: their totals add up to the blobs there were', async () => {
    // 70 blobs, two batches. The first run stops inside its first batch's transaction (one blob
    // placed); the second looks at the same batch meanwhile and waits for the writer lock; then
    // the first goes on. Every blob the second looked at was settled by the first: not its own.
    const { root, storeDir, data } = await olderProject(70);
    const first = startCli(['compact', root, '--json', ...data], { HINDSIGHT_STOP_AT: 'compact-placed' });
    const firstDone = finished(first);
    await stoppedAt(first, 'compact-placed');
    await isStopped(first);
    const second = startCli(['compact', root, '--json', ...data]);
    const secondDone = finished(second);
    await new Promise<void>((resolve) => second.stderr!.on('data', (chunk: Buffer) => chunk.toString().includes('waiting for process') && resolve()));
    first.kill('SIGCONT');
    const [a, b] = await Promise.all([firstDone, secondDone]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const results = [a, b].map((r) => JSON.parse(r.stdout.toString()) as CompactResult);
    expect(results.map((r) => r.converted + r.alreadyCompressed + r.keptRaw).reduce((x, y) => x + y)).toBe(70);
    expect(results[0]!.converted + results[1]!.converted).toBe(70);
    expect(Object.values(storedSizes(storeDir)).filter((size) => size !== null).length).toBe(70);
    expect(await cliJson(['verify', root, ...data])).toMatchObject({ ok: true });
  });

  it('leaves a store that a Hindsight knowing only schema 12 refuses with STORE_TOO_NEW', async () => {
    const { root, storeDir, data } = await olderProject();
    expect((await cliJson<CompactResult>(['compact', root, ...data])).converted).toBe(5);
    const file = historyDbPath(storeDir);
    expect(storedSchemaVersion(file)).toBeGreaterThanOrEqual(13);
    let refused: unknown;
    try {
      refuseNewerStore(file, 12);
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({ code: 'STORE_TOO_NEW', details: { schemaVersion: storedSchemaVersion(file), knownSchemaVersion: 12 } });
    expect(existsSync(file)).toBe(true);
  });
});
