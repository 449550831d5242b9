import { zstdCompressSync } from 'node:zlib';
import { describe, expect, it, onTestFinished } from 'vitest';
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { setSetting } from '../../../electron/history/config/projectEdits.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { blobPath, chunkListPath, compressedBlobPath, historyDbPath } from '../../../electron/history/store/storeLayout.js';
import { blobBytes, blobFile, chunksOf } from '../../helpers/storedBlob.js';
import { logBytes } from '../../helpers/logBytes.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { readTree, seededBytes, sha256 } from '../../helpers/writeTree.js';
import { notRacy, projectWithBaseline, readBack, type Project } from '../versions/versionsHelpers.js';

// Files longer than 1 MiB are stored as content-defined chunks: a list under the file's own
// SHA-256 (`<hash>.chunks`) naming chunks that are blobs of their own, compressed when that pays.
// A new version of an appended log costs its last chunk and a list; every reader gets the exact
// bytes back, checked chunk by chunk and whole.

const MiB = 1024 * 1024;
const LOG = logBytes(1, 20 * MiB);
const APPENDED = Buffer.concat([LOG, logBytes(2, 1024)]);

/** Every blob file in the store, with its size on disk. */
function storeFiles(blobsDir: string): Map<string, number> {
  const files = new Map<string, number>();
  for (const folder of readdirSync(blobsDir)) {
    if (!/^[0-9a-f]{2}$/.test(folder)) continue;
    for (const name of readdirSync(join(blobsDir, folder))) files.set(name, statSync(join(blobsDir, folder, name)).size);
  }
  return files;
}

/** The log recorded, then appended and recorded again: two versions sharing all but their last chunk. */
async function twoVersions(): Promise<Project & { versions: { versionId: number }[] }> {
  const project = await projectWithBaseline({ 'app.log': { data: LOG, mode: 0o640 }, 'small.txt': 'fine\n' });
  writeFileSync(join(project.root, 'app.log'), APPENDED);
  notRacy(project.store);
  await project.engine.rescan(project.projectId);
  return { ...project, versions: project.engine.versions(project.projectId, 'app.log') };
}

function flipByte(file: string, at: number): void {
  const bytes = readFileSync(file);
  bytes[at] = bytes[at]! ^ 0x01;
  writeFileSync(file, bytes);
}

describe('chunked large files', () => {
  it('store a 20 MiB log as a list of compressed chunks, and an appended version costs its last chunk and a list', async () => {
    const { engine, projectId, root, store } = await projectWithBaseline({ 'app.log': { data: LOG, mode: 0o640 } });
    const hash = sha256(LOG);
    expect(existsSync(chunkListPath(store.blobs.dir, hash))).toBe(true);
    expect(existsSync(blobPath(store.blobs.dir, hash))).toBe(false);
    const chunks = chunksOf(store.blobs.dir, hash);
    expect(chunks.length).toBeGreaterThanOrEqual(8);
    expect(chunks.every((chunk) => existsSync(compressedBlobPath(store.blobs.dir, chunk)))).toBe(true);
    expect(blobBytes(store.blobs.dir, hash).equals(LOG)).toBe(true);
    const before = storeFiles(store.blobs.dir);
    const first = [...before.values()].reduce((a, b) => a + b, 0);
    expect(first).toBeLessThan(LOG.length / 3);

    writeFileSync(join(root, 'app.log'), APPENDED);
    notRacy(store);
    await engine.rescan(projectId);
    const after = storeFiles(store.blobs.dir);
    const added = [...after].filter(([name]) => !before.has(name));
    // The last chunk (now longer) and the new list: nothing else.
    expect(added.map(([name]) => name.split('.')[1]).sort()).toEqual(['chunks', 'zst']);
    expect(added.reduce((sum, [, size]) => sum + size, 0)).toBeLessThan(2 * MiB);
    const db = new Database(historyDbPath(store.storeDir), { readonly: true });
    const rows = db.prepare('SELECT list, COUNT(*) AS n FROM blob_chunks GROUP BY list ORDER BY n').all() as { list: string; n: number }[];
    db.close();
    expect(rows.map((r) => r.list).sort()).toEqual([hash, sha256(APPENDED)].sort());
  });

  it('compress files between 64 KiB and 1 MiB when that pays (they were raw before)', async () => {
    const mid = logBytes(3, 500 * 1024);
    const { store } = await projectWithBaseline({ 'mid.log': mid });
    expect(existsSync(compressedBlobPath(store.blobs.dir, sha256(mid)))).toBe(true);
    expect(statSync(compressedBlobPath(store.blobs.dir, sha256(mid))).size).toBeLessThan(mid.length / 2);
  });

  it('restore a single file, an old version and a whole snapshot into a new folder with exact bytes and modes', async () => {
    const { engine, projectId, root, store, versions } = await twoVersions();
    expect(await readBack(engine, projectId, 'app.log', versions[0]!.versionId)).toBe(LOG.toString());
    await engine.restoreFile(projectId, 'app.log', versions[0]!.versionId);
    expect(readFileSync(join(root, 'app.log')).equals(LOG)).toBe(true);
    expect(statSync(join(root, 'app.log')).mode & 0o777).toBe(0o640);

    const into = join(tempDir(), 'copy');
    const snapshots = engine.log(projectId);
    await engine.materializeSnapshot(projectId, snapshots[1]!.snapshotId, into);
    expect(readFileSync(join(into, 'app.log')).equals(APPENDED)).toBe(true);
    expect(statSync(join(into, 'app.log')).mode & 0o777).toBe(0o640);
    expect(readFileSync(join(into, 'small.txt'), 'utf8')).toBe('fine\n');
    const shown: Buffer[] = [];
    for await (const piece of await engine.versionStream(projectId, 'app.log', versions[1]!.versionId)) shown.push(piece as Buffer);
    expect(sha256(Buffer.concat(shown))).toBe(sha256(APPENDED));
    expect((await engine.verify(projectId)).ok).toBe(true);
    expect(store.index.blobRecords.blobs().some((b) => b.hash === sha256(APPENDED))).toBe(true);
  });

  it('are found by the search in an old version', async () => {
    const { engine, projectId, root, store } = await projectWithBaseline({
      'app.log': Buffer.concat([LOG.subarray(0, 3 * MiB), Buffer.from('needle-in-the-old-log\n'), LOG.subarray(3 * MiB, 6 * MiB)]),
    });
    await engine.config.editConfig(setSetting('searchMaxFileSize', 16 * MiB));
    writeFileSync(join(root, 'app.log'), LOG.subarray(0, 6 * MiB));
    notRacy(store);
    await engine.rescan(projectId);
    await engine.buildSearchIndex(projectId);
    const result = await engine.search(projectId, { query: 'needle-in-the-old-log', regex: false, caseSensitive: true, limit: 10 });
    expect(result.results.map((h) => [h.path, h.stillPresent])).toEqual([['app.log', false]]);
    expect(result.results[0]!.versions.map((v) => v.versionId)).toEqual([engine.versions(projectId, 'app.log')[0]!.versionId]);
  });

  it('go out in an export whole and checked, and come back in another data folder byte-exact', async () => {
    const { engine, projectId, versions } = await twoVersions();
    const bundle = join(tempDir(), 'history.hsb');
    await engine.exportHistory(projectId, { file: bundle });
    const other = new HistoryEngine(tempDir('hindsight-data-'));
    onTestFinished(() => other.close());
    const imported = await other.importHistory({ file: bundle }, { as: tempDir() });
    const copied = other.versions(imported.projectId, 'app.log');
    expect(copied.map((v) => v.versionId)).toEqual(versions.map((v) => v.versionId));
    const read = async (versionId: number) => {
      const pieces: Buffer[] = [];
      for await (const piece of await other.versionStream(imported.projectId, 'app.log', versionId)) pieces.push(piece as Buffer);
      return sha256(Buffer.concat(pieces));
    };
    expect([await read(copied[0]!.versionId), await read(copied[1]!.versionId)]).toEqual([sha256(LOG), sha256(APPENDED)]);
    expect((await other.verify(imported.projectId)).ok).toBe(true);
  });

  const damages: Record<string, (blobsDir: string, chunk: string) => void> = {
    'a flipped byte in a chunk': (blobsDir, chunk) => flipByte(blobFile(blobsDir, chunk), statSync(blobFile(blobsDir, chunk)).size - 8),
    'a truncated chunk': (blobsDir, chunk) => writeFileSync(blobFile(blobsDir, chunk), readFileSync(blobFile(blobsDir, chunk)).subarray(0, 1000)),
    'a missing chunk': (blobsDir, chunk) => rmSync(blobFile(blobsDir, chunk)),
    // The chunk's own header (its raw length) over a frame of 64 MiB of zeros.
    'a decompression bomb in a chunk': (blobsDir, chunk) => {
      const file = blobFile(blobsDir, chunk);
      writeFileSync(file, Buffer.concat([readFileSync(file).subarray(0, 12), zstdCompressSync(Buffer.alloc(4 * MiB))]));
    },
  };
  for (const [name, damage] of Object.entries(damages)) {
    it(`with ${name} refuse the file naming it and verify names every version it breaks; verify --repair rewrites it from the folder`, async () => {
      const { engine, projectId, store, versions } = await twoVersions();
      const [older, newer] = [sha256(LOG), sha256(APPENDED)];
      // The first chunk: shared by both versions' lists.
      const shared = chunksOf(store.blobs.dir, older)[0]!;
      expect(chunksOf(store.blobs.dir, newer)[0]).toBe(shared);
      damage(store.blobs.dir, shared);
      const code = name === 'a missing chunk' ? 'BLOB_MISSING' : 'BLOB_CORRUPT';
      const expected = { code, details: expect.objectContaining({ hash: older, path: 'app.log', versionId: versions[0]!.versionId }) };
      const peakBefore = process.resourceUsage().maxRSS;
      await expect(engine.readVersion(projectId, 'app.log', { versionId: versions[0]!.versionId, maxBytes: 100 })).rejects.toMatchObject(expected);
      await expect(engine.readVersion(projectId, 'app.log', { versionId: versions[0]!.versionId, maxBytes: 100 })).rejects.toThrow(
        `its chunk ${shared.slice(0, 12)}`,
      );
      // Never inflated past the chunk's recorded length.
      expect(process.resourceUsage().maxRSS - peakBefore).toBeLessThan(64 * 1024);

      const found = await engine.verify(projectId);
      const broken = [...found.missing, ...found.corrupt];
      expect(broken.map((b) => b.hash).sort()).toEqual([older, newer].sort());
      expect(broken.flatMap((b) => b.versions.map((v) => v.versionId)).sort()).toEqual(versions.map((v) => v.versionId).sort());
      expect((code === 'BLOB_MISSING' ? found.missing : found.corrupt).length).toBe(2);

      // The folder still holds the newer bytes: their chunks are written again, the shared one
      // with them, which mends the older version too.
      const repaired = await engine.verify(projectId, { repair: true });
      expect(repaired.repaired.map((r) => r.hash)).toEqual([newer]);
      expect((await engine.verify(projectId)).ok).toBe(true);
      expect(await readBack(engine, projectId, 'app.log', versions[0]!.versionId)).toBe(LOG.toString());
    });
  }

  it('with a damaged chunk refuse a restore and leave the file as it was', async () => {
    const { engine, projectId, root, store, versions } = await twoVersions();
    writeFileSync(join(root, 'app.log'), 'edited since\n');
    notRacy(store);
    flipByte(blobFile(store.blobs.dir, chunksOf(store.blobs.dir, sha256(LOG))[0]!), 100);
    await expect(engine.restoreFile(projectId, 'app.log', versions[0]!.versionId)).rejects.toMatchObject({
      code: 'BLOB_CORRUPT',
      details: expect.objectContaining({ hash: sha256(LOG), path: 'app.log' }),
    });
    expect(readFileSync(join(root, 'app.log'), 'utf8')).toBe('edited since\n');
  });

  it('with a flipped byte in a raw chunk (incompressible bytes) refuse the file at that chunk, before any later chunk is read', async () => {
    const noise = seededBytes(11, 6 * MiB);
    const { engine, projectId, store } = await projectWithBaseline({ 'video.bin': noise });
    const [first] = chunksOf(store.blobs.dir, sha256(noise));
    expect(blobFile(store.blobs.dir, first!).endsWith(first!)).toBe(true); // raw: random bytes do not compress
    flipByte(blobFile(store.blobs.dir, first!), 5);
    const shown: Buffer[] = [];
    const show = async () => {
      for await (const piece of await engine.versionStream(projectId, 'video.bin')) shown.push(piece as Buffer);
    };
    await expect(show()).rejects.toThrow(`its chunk ${first!.slice(0, 12)}… is damaged`);
    expect(shown).toEqual([]);
    expect((await engine.verify(projectId)).corrupt.map((c) => c.hash)).toEqual([sha256(noise)]);
  });

  it('with a damaged list refuse the file (a list naming a chunk that is not there, a list of other chunks)', async () => {
    const { engine, projectId, store, versions } = await twoVersions();
    const list = chunkListPath(store.blobs.dir, sha256(LOG));
    const other = readFileSync(chunkListPath(store.blobs.dir, sha256(APPENDED)));
    // The entries of the newer list under the older one's name: every chunk sound, the whole wrong.
    chmodSync(list, 0o600);
    writeFileSync(list, other);
    await expect(engine.readVersion(projectId, 'app.log', { versionId: versions[0]!.versionId, maxBytes: 100 })).rejects.toThrow(
      /chunk list records|do not make up/,
    );
    flipByte(list, 20); // now names a chunk no file holds
    await expect(engine.readVersion(projectId, 'app.log', { versionId: versions[0]!.versionId, maxBytes: 100 })).rejects.toMatchObject({
      code: expect.stringMatching(/BLOB_(MISSING|CORRUPT)/),
    });
    expect((await engine.verify(projectId)).ok).toBe(false);
    expect(readTree(store.root)['app.log']!.hash).toBe(sha256(APPENDED));
  });
});
