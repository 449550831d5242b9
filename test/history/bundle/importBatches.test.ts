import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BATCH_BYTES, BATCH_RECORDS, BATCHES_IN_FLIGHT } from '../../../electron/history/bundle/importBatches.js';
import { hasBlob } from '../../../electron/history/store/blobFiles.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { seededBytes, sha256, type TreeSpec } from '../../helpers/writeTree.js';
import { projectWithBaseline } from '../versions/versionsHelpers.js';
import { otherEngine } from './bundleHelpers.js';

// An import's blobs go to the copy workers in batches (bundle/importBatches.ts,
// store/checkAndPlace.ts): many records to a message, at most BATCHES_IN_FLIGHT batches out at
// once, and a damaged blob a worker finds is still the typed error, with nothing left behind.

async function bundleOf(spec: TreeSpec): Promise<string> {
  const { engine, projectId } = await projectWithBaseline(spec);
  const bundle = join(tempDir(), 'history.hsb');
  await engine.exportHistory(projectId, { file: bundle });
  return bundle;
}

const PLACE_COUNTERS = ['import.placeBatches', 'import.placeRecords', 'import.blobTemps', 'import.mkdirs'];

describe('an import on the copy workers', () => {
  it('hands its blobs over up to 1,024 records to a message, and creates each fan-out folder once', async () => {
    const files = 2 * BATCH_RECORDS + 52;
    const spec: TreeSpec = {};
    for (let i = 0; i < files; i++) spec[`d${i % 9}/f${i}.txt`] = `file ${i}\n`;
    const bundle = await bundleOf(spec);
    const other = otherEngine();
    resetTrace();
    const result = await other.importHistory({ file: bundle }, { as: tempDir() });
    expect(result).toMatchObject({ blobsWritten: files, blobsPresent: 0 });
    const by = Object.fromEntries(PLACE_COUNTERS.map((name) => [name, counter(name)]));
    const folders = new Set(Object.values(spec).map((text) => sha256(text as string).slice(0, 2))).size;
    // Three messages (1,024 + 1,024 + 52), not one a blob; a folder made only where a write found it missing.
    expect(by).toEqual({ 'import.placeBatches': 3, 'import.placeRecords': files, 'import.blobTemps': files, 'import.mkdirs': folders });
    expect(await other.verify(result.projectId)).toMatchObject({ ok: true, blobs: files, missing: [], corrupt: [] });
  });

  it('keeps at most two batches out at once, whatever the bundle holds, and reuses their memory', async () => {
    // 40 incompressible blobs of about 1 MB: eight to a batch, five batches.
    const spec: TreeSpec = {};
    for (let i = 0; i < 40; i++) spec[`big/f${i}.bin`] = seededBytes(500 + i, 1_000_000);
    const bundle = await bundleOf(spec);
    const other = otherEngine();
    resetTrace();
    const result = await other.importHistory({ file: bundle }, { as: tempDir() });
    expect(result).toMatchObject({ blobsWritten: 40 });
    expect(counter('import.placeBatches')).toBe(5);
    expect(counter('import.placeBatchesInFlight')).toBeGreaterThanOrEqual(1);
    expect(counter('import.placeBatchesInFlight')).toBeLessThanOrEqual(BATCHES_IN_FLIGHT);
    expect(counter('import.placeBytesInFlight')).toBeLessThanOrEqual(BATCHES_IN_FLIGHT * BATCH_BYTES);
    // Batch memory comes back from the workers and is used again: not one buffer a batch.
    expect(counter('import.placeBuffers')).toBeLessThanOrEqual(BATCHES_IN_FLIGHT + 1);
    expect(await other.verify(result.projectId)).toMatchObject({ ok: true, blobs: 40, missing: [], corrupt: [] });
  });

  it('refuses a blob a worker finds damaged, in the last batch or in two, naming the earliest, and leaves no blob behind', async () => {
    const spec: TreeSpec = {};
    for (let i = 0; i < 40; i++) spec[`big/f${i}.bin`] = seededBytes(700 + i, 1_000_000);
    const bundle = await bundleOf(spec);
    const good = readFileSync(bundle);
    // Blobs come in hash order: the first carried is in the first batch, the last in the last.
    const hashes = Object.values(spec)
      .map((bytes) => sha256(bytes as Buffer))
      .sort();
    const other = otherEngine();
    const as = tempDir();
    for (const damaged of [[hashes.at(-1)!], [hashes[0]!, hashes.at(-1)!]]) {
      const flipped = Buffer.from(good);
      for (const hash of damaged) {
        const at = good.indexOf(Buffer.from(hash, 'hex')) + 500_000;
        flipped[at] = flipped[at]! ^ 0x01;
      }
      const file = join(tempDir(), 'flipped.hsb');
      writeFileSync(file, flipped);
      // The blob's own error, not the bundle's digest (which the flip breaks too, and is read later).
      await expect(other.importHistory({ file }, { as })).rejects.toMatchObject({ code: 'BUNDLE_CORRUPT', details: { hash: damaged[0] } });
      const store = other.store(other.locate(as));
      expect(store.index.snapshotReads.latestSnapshotId()).toBeUndefined();
      expect(hashes.filter((hash) => hasBlob(store.blobs.dir, hash))).toEqual([]);
    }
  });
});
