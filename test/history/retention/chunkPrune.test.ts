import Database from 'better-sqlite3';
import { existsSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { setSetting } from '../../../electron/history/config/projectEdits.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { chunkListPath, historyDbPath } from '../../../electron/history/store/storeLayout.js';
import { blobBytes, blobFile, chunksOf } from '../../helpers/storedBlob.js';
import { logBytes } from '../../helpers/logBytes.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { sha256, writeTree } from '../../helpers/writeTree.js';
import { ageHistory, THIN_ALL } from './pruneHelpers.js';

// A prune on chunked large files: a chunk lives while any kept list names it, goes with the last
// list naming it, and only after the grace period, as any blob does.

const HOUR = 3_600_000;
const MiB = 1024 * 1024;

async function recordEach(contents: Buffer[]) {
  const root = realpathSync(tempDir('hindsight-chunk-prune-'));
  writeTree(root, { 'app.log': contents[0]! });
  const engine = new HistoryEngine(tempDir('hindsight-data-'));
  onTestFinished(() => engine.close());
  const { projectId } = await engine.open(root);
  const store = engine.store(projectId);
  for (const bytes of contents.slice(1)) {
    writeFileSync(join(root, 'app.log'), bytes);
    store.index.setMeta('lastScanAt', String(8.64e15));
    await engine.rescan(projectId);
  }
  ageHistory(historyDbPath(store.storeDir), (i, count) => Date.now() - (count - i) * 30 * HOUR);
  await engine.config.editConfig(setSetting('retention', { ...THIN_ALL, graceMinutes: 60 }));
  return { root, engine, projectId, store };
}

const present = (blobsDir: string, hashes: string[]) => hashes.filter((hash) => existsSync(blobFile(blobsDir, hash)));

describe('prune of chunked files', () => {
  it('keeps a chunk a kept list still names, and collects a list with the chunks only it named after the grace period', async () => {
    const older = logBytes(1, 6 * MiB);
    const newer = Buffer.concat([older, logBytes(2, 1024)]);
    const { engine, projectId, root, store } = await recordEach([older, newer]);
    const [a, b] = [sha256(older), sha256(newer)];
    const chunksA = chunksOf(store.blobs.dir, a);
    const chunksB = chunksOf(store.blobs.dir, b);
    const shared = chunksA.filter((chunk) => chunksB.includes(chunk));
    const onlyA = chunksA.filter((chunk) => !chunksB.includes(chunk));
    expect(shared.length).toBe(chunksA.length - 1);
    expect(onlyA.length).toBe(1);

    // The older version is thinned: its list is marked, and nothing goes within the grace period.
    const first = await engine.prune(projectId);
    expect(first.versions).toBe(1);
    expect(first.deletedBlobs).toBe(0);
    expect(present(store.blobs.dir, chunksA)).toEqual(chunksA);
    expect(existsSync(chunkListPath(store.blobs.dir, a))).toBe(true);

    const late = await engine.prune(projectId, { now: Date.now() + 61 * 60_000 });
    expect(late.deletedBlobs).toBe(1);
    expect(existsSync(chunkListPath(store.blobs.dir, a))).toBe(false);
    expect(present(store.blobs.dir, onlyA)).toEqual([]);
    expect(present(store.blobs.dir, chunksB)).toEqual(chunksB);
    expect((await engine.verify(projectId)).ok).toBe(true);
    expect((await engine.readVersion(projectId, 'app.log', { maxBytes: 10 })).data).toBe(newer.subarray(0, 10).toString());
    const db = new Database(historyDbPath(store.storeDir), { readonly: true });
    onTestFinished(() => void db.close());
    expect(db.prepare('SELECT DISTINCT list FROM blob_chunks').all()).toEqual([{ list: b }]);

    // The last list naming them goes: so do all its chunks.
    writeFileSync(join(root, 'app.log'), 'short now\n');
    store.index.setMeta('lastScanAt', String(8.64e15));
    await engine.rescan(projectId);
    ageHistory(historyDbPath(store.storeDir), (i, count) => Date.now() - (count - i) * 30 * HOUR);
    await engine.prune(projectId);
    expect(present(store.blobs.dir, chunksB)).toEqual(chunksB);
    await engine.prune(projectId, { now: Date.now() + 61 * 60_000 });
    expect(present(store.blobs.dir, [b, ...chunksB])).toEqual([]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM blob_chunks').get()).toEqual({ n: 0 });
    expect((await engine.verify(projectId)).ok).toBe(true);
  });

  it('refuses to name a chunk collected after a writer trusted it: the write fails', async () => {
    const older = logBytes(5, 3 * MiB);
    const { engine, projectId, store } = await recordEach([older, Buffer.from('replaced\n')]);
    const list = sha256(older);
    const chunks = chunksOf(store.blobs.dir, list);
    const trusted = new Set(store.index.blobRecords.trustedHashes());
    expect(chunks.every((chunk) => trusted.has(chunk))).toBe(true);
    // A prune collects the list and its chunks meanwhile.
    await engine.prune(projectId);
    await engine.prune(projectId, { now: Date.now() + 61 * 60_000 });
    expect(present(store.blobs.dir, chunks)).toEqual([]);
    // The writer files a new list naming the first chunk without writing it (it trusted it).
    const write = () =>
      store.index.commitSnapshot({
        snapshot: { kind: 'change' },
        versions: [{ path: 'again.log', hash: 'f'.repeat(64), mode: 0o644, size: 300_000, type: 'file' }],
        blobs: [{ hash: 'f'.repeat(64), size: 300_000, chunks: [{ hash: chunks[0]!, size: 300_000 }] }],
      });
    expect(write).toThrow(expect.objectContaining({ code: 'BLOB_MISSING', details: expect.objectContaining({ hash: chunks[0], collected: true }) }));
    expect(engine.versions(projectId, 'again.log')).toEqual([]);
  });

  it('keeps the file of a chunk a whole file of the same bytes names when the list naming it goes', async () => {
    const older = logBytes(3, 3 * MiB);
    const { engine, projectId, root, store } = await recordEach([older, Buffer.from('replaced\n')]);
    const list = sha256(older);
    const firstChunk = chunksOf(store.blobs.dir, list)[0]!;
    // A second file holding exactly the first chunk's bytes: stored whole, under the chunk's name.
    const piece = blobBytes(store.blobs.dir, firstChunk);
    writeFileSync(join(root, 'piece.log'), piece);
    store.index.setMeta('lastScanAt', String(8.64e15));
    await engine.rescan(projectId);
    await engine.prune(projectId);
    await engine.prune(projectId, { now: Date.now() + 61 * 60_000 });
    expect(existsSync(chunkListPath(store.blobs.dir, list))).toBe(false);
    expect(present(store.blobs.dir, [firstChunk])).toEqual([firstChunk]);
    expect((await engine.verify(projectId)).ok).toBe(true);
    expect(sha256(await readWhole(engine, projectId, 'piece.log'))).toBe(firstChunk);
  });

  it('keeps the file of a whole blob a prune collects while a kept list names the same bytes as a chunk', async () => {
    const log = logBytes(4, 3 * MiB);
    const root = realpathSync(tempDir('hindsight-chunk-prune-'));
    writeTree(root, { 'app.log': log });
    const engine = new HistoryEngine(tempDir('hindsight-data-'));
    onTestFinished(() => engine.close());
    const { projectId } = await engine.open(root);
    const store = engine.store(projectId);
    const firstChunk = chunksOf(store.blobs.dir, sha256(log))[0]!;
    for (const bytes of [blobBytes(store.blobs.dir, firstChunk), Buffer.from('replaced\n')]) {
      writeFileSync(join(root, 'piece.log'), bytes);
      store.index.setMeta('lastScanAt', String(8.64e15));
      await engine.rescan(projectId);
    }
    ageHistory(historyDbPath(store.storeDir), (i, count) => Date.now() - (count - i) * 30 * HOUR);
    await engine.config.editConfig(setSetting('retention', THIN_ALL));
    const done = await engine.prune(projectId, { now: Date.now() + 61 * 60_000 });
    expect(done.versions).toBe(1);
    const db = new Database(historyDbPath(store.storeDir), { readonly: true });
    onTestFinished(() => void db.close());
    expect(db.prepare('SELECT COUNT(*) AS n FROM blobs WHERE hash = ?').get(firstChunk)).toEqual({ n: 0 });
    expect(present(store.blobs.dir, [firstChunk])).toEqual([firstChunk]);
    expect((await engine.verify(projectId)).ok).toBe(true);
    expect(sha256(await readWhole(engine, projectId, 'app.log'))).toBe(sha256(log));
  });
});

async function readWhole(engine: HistoryEngine, projectId: string, path: string): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of await engine.versionStream(projectId, path)) pieces.push(piece as Buffer);
  return Buffer.concat(pieces);
}
