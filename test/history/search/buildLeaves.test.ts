import { describe, expect, it, onTestFinished } from 'vitest';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { BUILD_CACHE_KIB, SearchIndexWriter } from '../../../electron/history/db/searchIndexWriter.js';
import { WriteGate } from '../../../electron/history/db/writeGate.js';
import { BATCH_BLOBS, BATCH_BYTES } from '../../../electron/history/search/indexBatch.js';
import { counter } from '../../../electron/history/trace.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { seededBytes, writeTree, type TreeSpec } from '../../helpers/writeTree.js';

// What a finished search index build leaves in the process: no thread, and while it ran, a
// connection with a small page cache (what a thread allocated stays in its malloc arena after it
// ends, so the build is kept from allocating much).

function textTree(files: number): TreeSpec {
  const spec: TreeSpec = {};
  for (let i = 0; i < files; i++) spec[`d${i % 7}/f${i}.txt`] = `file ${i}\n${seededBytes(i + 1, 200).toString('hex')}\n`;
  return spec;
}

async function opened(files: number) {
  const root = tempDir();
  writeTree(root, textTree(files));
  const engine = new HistoryEngine(tempDir('hindsight-data-'));
  onTestFinished(async () => {
    await engine.unwatchAll();
    engine.close();
  });
  const { projectId } = await engine.open(root);
  return { root, engine, projectId };
}

describe('what a search index build leaves behind', () => {
  it('ends its thread once nothing is left, and starts one again only when new blobs come', async () => {
    const { root, engine, projectId } = await opened(BATCH_BLOBS + 10);
    const started = counter('search.indexThreads');
    const ended = counter('search.indexThreadsEnded');
    await engine.buildSearchIndex(projectId);
    expect(counter('search.indexThreads') - started).toBe(1);
    expect(counter('search.indexThreadsEnded') - ended).toBe(1);
    // A new blob: the next build starts a thread again, and ends it.
    writeTree(root, { 'new.txt': 'a new text file' });
    await engine.open(root);
    await engine.buildSearchIndex(projectId);
    expect(counter('search.indexThreads') - started).toBe(2);
    expect(counter('search.indexThreadsEnded') - ended).toBe(2);
  });

  it('takes at most 64 KiB of text per batch, so one transaction never holds much of it in memory', async () => {
    const root = tempDir();
    const spec: TreeSpec = {};
    // 40 texts of 8 KiB: 320 KiB, five batches' worth at most.
    for (let i = 0; i < 40; i++) spec[`t${i}.txt`] = `${i}\n${seededBytes(i + 7, 4096).toString('hex')}`.slice(0, 8192);
    writeTree(root, spec);
    const engine = new HistoryEngine(tempDir('hindsight-data-'));
    onTestFinished(() => engine.close());
    const { projectId } = await engine.open(root);
    const before = counter('search.workerBatches');
    await engine.buildSearchIndex(projectId);
    // Five batches of text and the answer that nothing is left; a 1 MiB batch would take all 40 in one.
    expect(counter('search.workerBatches') - before).toBeGreaterThanOrEqual((40 * 8192) / (64 * 1024) + 1);
    expect(BATCH_BYTES).toBeLessThanOrEqual(64 * 1024);
    expect(engine.store(projectId).index.search.searchProgress(1 << 20)).toEqual({ indexedBlobs: 40, totalBlobs: 40 });
  });

  it("gives the build's connection a small page cache, not the driver's 16 MiB", async () => {
    const { engine, projectId } = await opened(3);
    const writer = new SearchIndexWriter(engine.store(projectId).index.file, new WriteGate().buffer);
    onTestFinished(() => writer.close());
    expect(BUILD_CACHE_KIB).toBeLessThanOrEqual(2048);
    expect(writer.cacheKib()).toBe(BUILD_CACHE_KIB);
  });
});
