import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createZstdCompress } from 'node:zlib';
import type { VerifyResult } from '../../../shared/history.js';
import { compressBlob, decompressBlob } from '../../../electron/history/codec/blobCodec.js';
import { blobPath, compressedBlobPath } from '../../../electron/history/store/storeLayout.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { runCli } from '../../helpers/runCli.js';
import { blobBytes } from '../../helpers/storedBlob.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { seededBytes, sha256, writeTree } from '../../helpers/writeTree.js';
import { notRacy, projectWithBaseline, readBack } from '../versions/versionsHelpers.js';

// Blobs are kept compressed (zstd, `<sha256 of the raw bytes>.zst`) when that saves at least a
// tenth, raw otherwise; every reader gets the raw bytes, checked against the name, and a damaged
// compressed blob is BLOB_CORRUPT like a damaged raw one. Raw blobs of a store written before
// stay readable beside compressed ones.

/** A source-like text of about 20 KiB: compresses well. */
const TEXT = Array.from({ length: 400 }, (_, i) => `export function step${i}(value: number): number { return value * ${i} + 1; }\n`).join('');
const NOISE = seededBytes(7, 20_000);

function flipByte(file: string, at: number): void {
  const bytes = readFileSync(file);
  bytes[at] = bytes[at]! ^ 0x01;
  writeFileSync(file, bytes);
}

describe('compressed blobs', () => {
  it('keep a compressible file compressed under its raw SHA-256, smaller than raw, and restore it byte-exact', async () => {
    const { engine, projectId, root, store } = await projectWithBaseline({ 'src.ts': TEXT });
    const hash = sha256(TEXT);
    const file = compressedBlobPath(store.blobs.dir, hash);
    expect(existsSync(file)).toBe(true);
    expect(existsSync(blobPath(store.blobs.dir, hash))).toBe(false);
    expect(statSync(file).size).toBeLessThan(Buffer.byteLength(TEXT) / 2);
    expect(sha256(decompressBlob(readFileSync(file)))).toBe(hash);

    const [baseline] = engine.versions(projectId, 'src.ts');
    writeFileSync(join(root, 'src.ts'), 'edited\n');
    notRacy(store);
    await engine.rescan(projectId);
    expect(await readBack(engine, projectId, 'src.ts', baseline!.versionId)).toBe(TEXT);
    await engine.restoreFile(projectId, 'src.ts', baseline!.versionId);
    expect(readFileSync(join(root, 'src.ts'), 'utf8')).toBe(TEXT);
    expect((await engine.verify(projectId)).ok).toBe(true);
  });

  it('keep an incompressible file raw', async () => {
    const { store } = await projectWithBaseline({ 'noise.bin': NOISE });
    const hash = sha256(NOISE);
    expect(readFileSync(blobPath(store.blobs.dir, hash)).equals(NOISE)).toBe(true);
    expect(existsSync(compressedBlobPath(store.blobs.dir, hash))).toBe(false);
  });

  it('are not looked for when a blob is too small to be kept compressed', async () => {
    const { engine, projectId } = await projectWithBaseline({ 'small.txt': 'a few bytes\n', 'src.ts': TEXT });
    resetTrace();
    expect(await readBack(engine, projectId, 'small.txt')).toBe('a few bytes\n');
    expect(counter('store.compressedLooks')).toBe(0);
    expect(await readBack(engine, projectId, 'src.ts')).toBe(TEXT);
    expect(counter('store.compressedLooks')).toBe(1);
  });

  it('are read beside the raw blobs of a store written before them', async () => {
    const { engine, projectId, root, store } = await projectWithBaseline({ 'old.ts': TEXT });
    // The store as an older Hindsight wrote it: the same blob, raw.
    const hash = sha256(TEXT);
    writeFileSync(blobPath(store.blobs.dir, hash), TEXT, { mode: 0o600 });
    rmSync(compressedBlobPath(store.blobs.dir, hash));
    const newer = `${TEXT}// and one more line\n`;
    writeFileSync(join(root, 'new.ts'), newer);
    notRacy(store);
    await engine.rescan(projectId);
    expect(existsSync(compressedBlobPath(store.blobs.dir, sha256(newer)))).toBe(true);

    expect(await readBack(engine, projectId, 'old.ts')).toBe(TEXT);
    expect(await readBack(engine, projectId, 'new.ts')).toBe(newer);
    expect((await engine.verify(projectId)).ok).toBe(true);
    const into = join(tempDir(), 'copy');
    await engine.materializeSnapshot(projectId, store.index.snapshotReads.latestSnapshotId()!, into);
    expect(readFileSync(join(into, 'old.ts'), 'utf8')).toBe(TEXT);
    expect(readFileSync(join(into, 'new.ts'), 'utf8')).toBe(newer);
  });

  const damages = {
    'a flipped byte in its frame': (file: string) => flipByte(file, statSync(file).size - 8),
    'a flipped byte in its header': (file: string) => flipByte(file, 10),
    'a truncated file': (file: string) => writeFileSync(file, readFileSync(file).subarray(0, statSync(file).size - 20)),
    // A frame that inflates cleanly to the recorded length, but to other bytes: only the hash tells.
    'a sound frame of other bytes': (file: string) => writeFileSync(file, compressBlob(Buffer.from(TEXT.replace('step1(', 'stepX(')))!),
    // Longer than any compressed blob: refused before it is read.
    'a file grown past any compressed blob': (file: string) => writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.alloc(5 * 1024 * 1024)])),
  };
  for (const [name, damage] of Object.entries(damages)) {
    it(`with ${name} are BLOB_CORRUPT naming the file, for every reader`, async () => {
      const { engine, projectId, root, store } = await projectWithBaseline({ 'src.ts': TEXT, 'other.txt': 'fine' });
      const hash = sha256(TEXT);
      const [baseline] = engine.versions(projectId, 'src.ts');
      writeFileSync(join(root, 'src.ts'), 'edited since\n');
      notRacy(store);
      damage(compressedBlobPath(store.blobs.dir, hash));
      const expected = { code: 'BLOB_CORRUPT', details: expect.objectContaining({ hash, path: 'src.ts' }) };
      const versionId = baseline!.versionId;

      await expect(engine.readVersion(projectId, 'src.ts', { versionId, maxBytes: 100 })).rejects.toMatchObject(expected);
      await expect(engine.readVersion(projectId, 'src.ts', { versionId, maxBytes: 100 })).rejects.toThrow(`src.ts (version ${versionId})`);
      const shown: Buffer[] = [];
      const show = async () => {
        for await (const chunk of await engine.versionStream(projectId, 'src.ts', versionId)) shown.push(chunk as Buffer);
      };
      await expect(show()).rejects.toMatchObject(expected);
      expect(shown).toEqual([]);
      await expect(engine.restoreFile(projectId, 'src.ts', versionId)).rejects.toMatchObject(expected);
      expect(readFileSync(join(root, 'src.ts'), 'utf8')).toBe('edited since\n');
      expect((await engine.verify(projectId)).corrupt.map((c) => c.hash)).toEqual([hash]);
      expect(await readBack(engine, projectId, 'other.txt')).toBe('fine');
    });
  }

  it('refuse a compressed file longer than any compressed blob before reading it', async () => {
    const { engine, projectId, store } = await projectWithBaseline({ 'src.ts': TEXT });
    const file = compressedBlobPath(store.blobs.dir, sha256(TEXT));
    writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.alloc(5 * 1024 * 1024)]));
    await expect(engine.readVersion(projectId, 'src.ts', { maxBytes: 100 })).rejects.toThrow('more than a compressed blob takes');
  });

  it('refuse a bomb (a frame inflating far past the recorded length) without inflating it', async () => {
    const { engine, projectId, store } = await projectWithBaseline({ 'src.ts': TEXT });
    const hash = sha256(TEXT);
    const file = compressedBlobPath(store.blobs.dir, hash);
    // The blob's own header (its raw length) over a frame of 1 GiB of zeros.
    const header = readFileSync(file).subarray(0, 12);
    writeFileSync(file, Buffer.concat([header, await zeroFrame(1024)]));
    const peakBefore = process.resourceUsage().maxRSS;

    await expect(engine.readVersion(projectId, 'src.ts', { maxBytes: 100 })).rejects.toMatchObject({ code: 'BLOB_CORRUPT' });
    await expect(engine.readVersion(projectId, 'src.ts', { maxBytes: 100 })).rejects.toThrow('inflates past its recorded');
    expect((await engine.verify(projectId)).corrupt.map((c) => c.hash)).toEqual([hash]);
    // Inflated whole, the frame would have taken 1 GiB: the peak grew by far less (KiB).
    expect(process.resourceUsage().maxRSS - peakBefore).toBeLessThan(256 * 1024);
  });

  it('damaged, are rewritten by verify --repair from the file on disk', async () => {
    const root = tempDir();
    const dataDir = tempDir('hindsight-data-');
    writeTree(root, { 'src.ts': TEXT });
    expect((await runCli(['open', root, '--data-dir', dataDir])).code).toBe(0);
    const projects = readdirSync(join(dataDir, 'projects'));
    const blobsDir = join(dataDir, 'projects', projects[0]!, 'blobs');
    const hash = sha256(TEXT);
    flipByte(compressedBlobPath(blobsDir, hash), 40);

    const verify = async (...flags: string[]) => {
      const result = await runCli(['verify', root, '--data-dir', dataDir, '--json', ...flags]);
      return { code: result.code, value: JSON.parse(result.stdout.toString('utf8')) as VerifyResult };
    };
    const found = await verify();
    expect(found.code).toBe(1);
    expect(found.value.corrupt.map((c) => c.hash)).toEqual([hash]);
    const repaired = await verify('--repair');
    expect(repaired.code).toBe(0);
    expect(repaired.value.repaired.map((r) => r.hash)).toEqual([hash]);
    expect(blobBytes(blobsDir, hash).toString('utf8')).toBe(TEXT);
    expect(existsSync(blobPath(blobsDir, hash))).toBe(false);
    expect((await verify()).code).toBe(0);
  });

  it('damaged raw, are replaced by the compressed form and the raw file removed', async () => {
    const { engine, projectId, store } = await projectWithBaseline({ 'src.ts': TEXT });
    const hash = sha256(TEXT);
    // An older store's raw blob, damaged.
    writeFileSync(blobPath(store.blobs.dir, hash), `${TEXT.slice(0, -1)}!`, { mode: 0o600 });
    rmSync(compressedBlobPath(store.blobs.dir, hash));
    const result = await engine.verify(projectId, { repair: true });
    expect(result.repaired.map((r) => r.hash)).toEqual([hash]);
    expect(existsSync(blobPath(store.blobs.dir, hash))).toBe(false);
    expect(blobBytes(store.blobs.dir, hash).toString('utf8')).toBe(TEXT);
    expect(await readBack(engine, projectId, 'src.ts')).toBe(TEXT);
  });
});

/** A zstd frame of `mib` MiB of zeros, made a piece at a time (never held whole). */
async function zeroFrame(mib: number): Promise<Buffer> {
  const compress = createZstdCompress();
  const out: Buffer[] = [];
  compress.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise<void>((resolve, reject) => compress.on('end', resolve).on('error', reject));
  const piece = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < mib; i++) {
    if (!compress.write(piece)) await new Promise((resolve) => compress.once('drain', resolve));
  }
  compress.end();
  await done;
  return Buffer.concat(out);
}
