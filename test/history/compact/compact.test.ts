import { describe, expect, it, onTestFinished } from 'vitest';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { CompactResult } from '../../../shared/contract/values.js';
import type { Progress } from '../../../shared/progress.js';
import { compactStore } from '../../../electron/history/compact/compactStore.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { blobPath, compressedBlobPath } from '../../../electron/history/store/storeLayout.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { cliJson, runCli } from '../../helpers/runCli.js';
import { sha256 } from '../../helpers/writeTree.js';
import { readBack } from '../versions/versionsHelpers.js';
import { blobFiles, NOISE, olderStore, sourceText, storedSizes } from './olderStore.js';

// Compaction converts the raw blobs of a store written before blobs were compressed: each one
// where compressing pays is written again compressed (its name the SHA-256 of its raw bytes, its
// bytes hash-checked first), its raw file removed, and its bytes on disk recorded; one that would
// not shrink enough stays raw and is not looked at again. It stops when asked and the next run
// goes on; --dry-run writes nothing.

function engineFor(dataDir: string): HistoryEngine {
  const engine = new HistoryEngine(dataDir);
  onTestFinished(() => engine.close());
  return engine;
}

describe('compaction', () => {
  it('compresses the raw blobs of an older store where it pays, keeps the rest raw, and every version reads back the same', async () => {
    const texts = [1, 2, 3].map((seed) => sourceText(seed));
    const { root, dataDir, storeDir, blobsDir } = await olderStore({
      'a.ts': texts[0]!,
      'b.ts': texts[1]!,
      'sub/c.ts': texts[2]!,
      'noise.bin': NOISE,
      'small.txt': 'small\n',
    });
    for (const text of texts) expect(existsSync(blobPath(blobsDir, sha256(text)))).toBe(true);
    const engine = engineFor(dataDir);
    const projectId = engine.locate(root);

    resetTrace();
    const progress: Progress[] = [];
    engine.events.on((event) => void (event.event === 'progress' && progress.push(event.payload)));
    const result = await engine.compact(projectId, { operationId: 'compact-1' });
    // The progress the CLI's bar and the viewer draw: blobs and raw bytes looked at, then done.
    expect(progress.at(-1)).toMatchObject({
      operation: 'compact',
      operationId: 'compact-1',
      phase: 'done',
      filesDone: 4,
      filesTotal: 4,
      bytesTotal: result.candidateBytes,
    });
    expect(result).toMatchObject({ dryRun: false, candidates: 4, looked: 4, converted: 3, keptRaw: 1, absent: 0, damaged: 0, stopped: false });
    expect(counter('compact.lowPriorityBatches')).toBe(counter('compact.workerBatches'));
    const rawBytes = texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0);
    expect(result.rawBytes).toBe(rawBytes);
    expect(result.savedBytes).toBe(result.rawBytes - result.storedBytes);
    expect(result.storedBytes).toBeLessThan(rawBytes / 2);

    const sizes = storedSizes(storeDir);
    for (const text of texts) {
      const hash = sha256(text);
      expect(existsSync(blobPath(blobsDir, hash))).toBe(false);
      expect(sizes[hash]).toBe(statSync(compressedBlobPath(blobsDir, hash)).size);
    }
    expect(sizes[sha256(NOISE)]).toBe(NOISE.length);
    expect(readFileSync(blobPath(blobsDir, sha256(NOISE))).equals(NOISE)).toBe(true);
    expect(blobFiles(blobsDir).filter((f) => f.includes('incoming-'))).toEqual([]);
    expect((await engine.verify(projectId)).ok).toBe(true);
    expect(await readBack(engine, projectId, 'a.ts')).toBe(texts[0]);
    expect(await readBack(engine, projectId, 'sub/c.ts')).toBe(texts[2]);

    // What the index says the blobs take on disk is what they take.
    const totals = engine.store(projectId).index.blobRecords.blobTotals();
    expect(totals).toMatchObject({ blobs: 5, compressed: 3, raw: 2, unknown: 0 });
    expect(totals.storedBytes).toBe(totals.bytes - result.savedBytes);

    // Nothing is left to look at: the incompressible blob is not tried again.
    expect(await engine.compact(projectId)).toMatchObject({ candidates: 0, looked: 0, converted: 0 });
  });

  it('with --dry-run counts what it would convert and save, and writes nothing', async () => {
    const texts = [4, 5].map((seed) => sourceText(seed));
    const { root, dataDir, storeDir, blobsDir } = await olderStore({ 'a.ts': texts[0]!, 'b.ts': texts[1]!, 'noise.bin': NOISE });
    const filesBefore = blobFiles(blobsDir);
    const sizesBefore = storedSizes(storeDir);

    const dry = await cliJson<CompactResult>(['compact', root, '--dry-run', '--data-dir', dataDir]);
    expect(dry).toMatchObject({ dryRun: true, candidates: 3, converted: 2, keptRaw: 1 });
    expect(dry.savedBytes).toBeGreaterThan(0);
    expect(blobFiles(blobsDir)).toEqual(filesBefore);
    expect(storedSizes(storeDir)).toEqual(sizesBefore);
    const text = await runCli(['compact', root, '--dry-run', '--data-dir', dataDir]);
    expect(text.code).toBe(0);
    expect(text.stdout.toString()).toContain('Would compress 2 blobs');

    // The real run does what the dry run said.
    const real = await cliJson<CompactResult>(['compact', root, '--data-dir', dataDir]);
    expect(real).toMatchObject({ dryRun: false, converted: dry.converted, rawBytes: dry.rawBytes, storedBytes: dry.storedBytes, savedBytes: dry.savedBytes });
    expect(await cliJson(['verify', root, '--data-dir', dataDir])).toMatchObject({ ok: true });
  });

  it('stops when asked after a batch, keeps what it converted, and the next run goes on from there', async () => {
    const spec: Record<string, string> = {};
    for (let i = 0; i < 70; i++) spec[`f${i}.ts`] = sourceText(100 + i, 90);
    const { root, dataDir, storeDir } = await olderStore(spec);
    const engine = engineFor(dataDir);
    const project = engine.store(engine.locate(root));
    const stop = new AbortController();
    let looks = 0;
    const first = await compactStore(project, {
      signal: stop.signal,
      asWriter: (work) => project.writer.hold(work),
      // Asked before each batch: the second time, the run is told to stop.
      busy: () => void (looks++ === 1 && stop.abort()),
    });
    expect(first).toMatchObject({ candidates: 70, stopped: true });
    expect(first.converted).toBe(first.looked);
    expect(first.looked).toBeGreaterThan(0);
    expect(first.looked).toBeLessThan(70);
    const recorded = Object.values(storedSizes(storeDir)).filter((size) => size !== null).length;

    const second = await compactStore(project, { asWriter: (work) => project.writer.hold(work) });
    expect(second).toMatchObject({ candidates: 70 - first.looked, converted: 70 - first.looked, stopped: false });
    expect(Object.values(storedSizes(storeDir)).filter((size) => size !== null).length).toBe(recorded + second.converted);
    expect((await engine.verify(engine.locate(root))).ok).toBe(true);
  });

  it('leaves a damaged raw blob as it is, marked for verify --repair, and converts the others', async () => {
    const texts = [7, 8].map((seed) => sourceText(seed));
    const { root, dataDir, storeDir, blobsDir } = await olderStore({ 'a.ts': texts[0]!, 'b.ts': texts[1]! });
    const damaged = blobPath(blobsDir, sha256(texts[0]!));
    const bytes = readFileSync(damaged);
    bytes[10] = bytes[10]! ^ 1;
    writeFileSync(damaged, bytes);
    const engine = engineFor(dataDir);
    const projectId = engine.locate(root);
    const result = await engine.compact(projectId);
    expect(result).toMatchObject({ converted: 1, damaged: 1 });
    expect(readFileSync(damaged).equals(bytes)).toBe(true);
    expect(existsSync(compressedBlobPath(blobsDir, sha256(texts[0]!)))).toBe(false);
    expect(engine.store(projectId).index.damage.damagedHashes()).toEqual([sha256(texts[0]!)]);
    // The folder still holds the right bytes: verify --repair writes them again.
    expect((await engine.verify(projectId, { repair: true })).ok).toBe(true);
    expect(await readBack(engine, projectId, 'a.ts')).toBe(texts[0]);
    // Written again compressed by the repair: its bytes on disk recorded, nothing left to compact.
    expect(storedSizes(storeDir)[sha256(texts[0]!)]).toBe(statSync(compressedBlobPath(blobsDir, sha256(texts[0]!))).size);
    expect(await engine.compact(projectId)).toMatchObject({ candidates: 0 });
  });
});
