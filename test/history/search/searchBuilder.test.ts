import { describe, expect, it, onTestFinished } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { OpenProject } from '../../../electron/history/registry/openProject.js';
import { SearchIndexWriter } from '../../../electron/history/db/searchIndexWriter.js';
import { WriteGate } from '../../../electron/history/db/writeGate.js';
import { BATCH_BLOBS } from '../../../electron/history/search/indexBatch.js';
import { SearchBuilder } from '../../../electron/history/search/searchBuilder.js';
import { counter } from '../../../electron/history/trace.js';
import { historyDbPath, projectStoreDir } from '../../../electron/history/store/storeLayout.js';
import { cliJson, finished, startCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { seededBytes, writeTree, type TreeSpec } from '../../helpers/writeTree.js';
import { until } from '../../helpers/until.js';

// The search index build: in the background behind every write, kept current as versions are
// recorded, and resumed where a killed build left it.

/** Polls (no time limit of its own: the test's timeout is the limit). */

function textTree(files: number, seed = 1): TreeSpec {
  const spec: TreeSpec = {};
  for (let i = 0; i < files; i++) spec[`d${i % 30}/f${i}.txt`] = `file ${i}\n${seededBytes(seed + i, 200).toString('hex')}\n`;
  return spec;
}

async function opened(spec: TreeSpec, watch = false) {
  const root = tempDir();
  writeTree(root, spec);
  const dataDir = tempDir('hindsight-data-');
  const engine = new HistoryEngine(dataDir);
  onTestFinished(async () => {
    await engine.unwatchAll();
    engine.close();
  });
  const { projectId } = await engine.open(root, { watch });
  return { root, dataDir, engine, projectId };
}

describe('the search index build', () => {
  it('runs no batch while a write to the project is queued or running, and goes on after it', async () => {
    // More blobs than one batch takes.
    const { engine, projectId } = await opened(textTree(BATCH_BLOBS + 50));
    const store = engine.store(projectId);
    const record = new OpenProject(store);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const write = record.serial(() => gate);
    const builder = new SearchBuilder(store, { maxSize: () => 1 << 20, busy: () => record.writing() });
    builder.poke();
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(builder.batches).toBe(0);
    expect(record.writing()).toBeDefined();
    release();
    await write;
    await builder.settled();
    expect(builder.batches).toBeGreaterThan(1);
    expect(record.writing()).toBeUndefined();
    expect(store.index.search.searchProgress(1 << 20)).toEqual({ indexedBlobs: BATCH_BLOBS + 50, totalBlobs: BATCH_BLOBS + 50 });
  });

  it('starts after an open that watches and indexes each new version as it is recorded', async () => {
    const { root, engine, projectId } = await opened(textTree(50), true);
    const progress = () => engine.storeStats(projectId, 0).searchIndex;
    await until(() => progress().done);
    expect(progress()).toMatchObject({ indexedBlobs: 50, totalBlobs: 50, done: true });
    const index = engine.store(projectId).index;
    expect(index.search.blobsContaining('brand new words')).toEqual([]);

    let snapshots = 0;
    engine.events.on((event) => void (event.event === 'snapshot' && snapshots++));
    writeFileSync(join(root, 'added.txt'), 'brand new words\n');
    await until(() => snapshots > 0);
    await until(() => progress().indexedBlobs === 51);
    expect(index.search.blobsContaining('brand new words')).toHaveLength(1);
    const found = await engine.search(projectId, { query: 'brand new', regex: false, caseSensitive: false, limit: 10 });
    expect(found).toMatchObject({ indexed: true, index: { done: true } });
    expect(found.results.map((h) => h.path)).toEqual(['added.txt']);
    const stats = progress();
    expect(stats.textBytes).toBeGreaterThan(0);
    expect(stats.indexBytes).toBeGreaterThan(0);
  });

  it("runs every batch in a worker thread at the lowest priority, none on the history process's thread", async () => {
    const { engine, projectId } = await opened(textTree(BATCH_BLOBS * 2 + 10));
    const here = counter('search.batches');
    const fromWorker = counter('search.workerBatches');
    const lowPriority = counter('search.lowPriorityBatches');
    await engine.buildSearchIndex(projectId);
    // Three batches, and the answer that nothing is left.
    expect(counter('search.workerBatches') - fromWorker).toBe(4);
    // Linux gives a thread its own niceness; elsewhere the worker keeps the app's priority.
    expect(counter('search.lowPriorityBatches') - lowPriority).toBe(process.platform === 'linux' ? 4 : 0);
    expect(counter('search.batches') - here).toBe(0);
    expect(engine.store(projectId).index.search.searchProgress(1 << 20)).toEqual({ indexedBlobs: BATCH_BLOBS * 2 + 10, totalBlobs: BATCH_BLOBS * 2 + 10 });
  });

  it('records changes while the worker builds, and the index takes them in', async () => {
    const { root, engine, projectId } = await opened(textTree(3000, 3));
    const building = engine.buildSearchIndex(projectId);
    for (let i = 0; i < 8; i++) {
      writeFileSync(join(root, `added${i}.txt`), `recorded while building ${i}\n`);
      await engine.rescan(projectId);
    }
    await building;
    await engine.buildSearchIndex(projectId);
    const found = await engine.search(projectId, { query: 'while building', regex: false, caseSensitive: false, limit: 20 });
    expect(found.index).toEqual({ indexedBlobs: 3008, totalBlobs: 3008, done: true });
    expect(found.results).toHaveLength(8);
  });

  it("ends a batch's transaction after the blob in hand when the history process wants to write", async () => {
    const { engine, projectId } = await opened(textTree(3));
    const store = engine.store(projectId);
    const gate = new WriteGate();
    const writer = new SearchIndexWriter(store.index.file, gate.buffer);
    onTestFinished(() => writer.close());
    const batch = store.index.search
      .unindexedBlobs('', 1 << 20, 10)
      .map((b) => ({ hash: b.hash, state: 'text' as const, bytes: b.size, text: readFileSync(join(store.root, 'd0/f0.txt'), 'utf8') }));
    expect(batch).toHaveLength(3);
    // What enterMain sets while it waits for the build's transaction.
    new Int32Array(gate.buffer)[1] = 1;
    expect(writer.recordIndexed(batch)).toEqual({ recorded: 1, added: 1 });
    new Int32Array(gate.buffer)[1] = 0;
    expect(writer.recordIndexed(batch.slice(1))).toEqual({ recorded: 2, added: 2 });
  });

  it("makes a write of the history process wait for the build's transaction, asking it to end", async () => {
    const { engine, projectId } = await opened(textTree(3));
    const index = engine.store(projectId).index;
    const gate = new WriteGate();
    index.search.shareWrites(gate);
    onTestFinished(() => index.search.shareWrites(undefined));
    // The build's side of the gate in another thread: holds it until asked to leave.
    const build = new Worker(
      `const { workerData, parentPort } = require('node:worker_threads');
       const cells = new Int32Array(workerData);
       Atomics.store(cells, 0, 2);
       parentPort.postMessage('holding');
       while (Atomics.load(cells, 1) === 0) Atomics.wait(cells, 1, 0, 5);
       Atomics.store(cells, 0, 0);
       Atomics.notify(cells, 0);`,
      { eval: true, workerData: gate.buffer },
    );
    onTestFinished(() => void build.terminate());
    await once(build, 'message');
    const waits = counter('search.gateWaits');
    // A transaction on the history process's connection (nothing to record: the gate is what is looked at).
    expect(index.search.recordIndexed([])).toEqual({ recorded: 0, added: 0 });
    expect(counter('search.gateWaits') - waits).toBeGreaterThan(0);
    expect(Array.from(new Int32Array(gate.buffer))).toEqual([0, 0]);
  });

  it('resumes after the building process is killed, indexing only what it had not committed', async () => {
    const files = 4000;
    const root = tempDir();
    writeTree(root, textTree(files, 7));
    const dataDir = tempDir('hindsight-data-');
    const { projectId } = await cliJson<{ projectId: string }>(['open', root, '--data-dir', dataDir]);
    const db = new Database(historyDbPath(projectStoreDir(dataDir, projectId)), { readonly: true });
    onTestFinished(() => void db.close());
    const indexed = () => (db.prepare('SELECT COUNT(*) AS n FROM search_blobs').get() as { n: number }).n;

    const child = startCli(['index', root, '--data-dir', dataDir, '--json']);
    const done = finished(child);
    await until(() => indexed() > 0);
    child.kill('SIGKILL');
    expect((await done).signal).toBe('SIGKILL');
    const before = indexed();
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(files);

    const resumed = await cliJson<{ indexedBlobs: number; totalBlobs: number; indexedNow: number }>(['index', root, '--data-dir', dataDir]);
    expect(resumed).toEqual({ indexedBlobs: files, totalBlobs: files, indexedNow: files - before });
    // Every blob once in the state table and once in the index: nothing twice, nothing lost.
    expect(indexed()).toBe(files);
    expect(db.prepare('SELECT COUNT(*) AS n FROM search_text_docsize').get()).toEqual({ n: files });
    const hit = await cliJson<{ results: { path: string }[] }>(['search', root, 'file 3999', '--data-dir', dataDir]);
    expect(hit.results.map((h) => h.path)).toEqual(['d9/f3999.txt']);
  });
});
