import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { VerifyResult } from '../../../shared/history.js';
import { blobPath } from '../../../electron/history/store/storeLayout.js';
import { runCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { sha256, writeTree } from '../../helpers/writeTree.js';
import { notRacy, projectWithBaseline, readBack } from '../versions/versionsHelpers.js';

// A blob whose bytes no longer match its name is never trusted again once found: the next time
// its right bytes are filed (a new file with the same contents, a rescan of a file that still holds
// them, verify --repair) they are written over it, and the versions naming it read right again.

const GOOD = 'the contents every version of these files had\n';
const LOST = 'bytes that are nowhere in the folder any more\n';

function flipByte(blob: string): void {
  const bytes = readFileSync(blob);
  bytes[5] = bytes[5]! ^ 0x01;
  writeFileSync(blob, bytes);
}

function blobIntact(blobsDir: string, hash: string): boolean {
  return sha256(readFileSync(blobPath(blobsDir, hash))) === hash;
}

describe('a damaged blob', () => {
  it('is written again when a new file brings its bytes, instead of the new version pointing at it', async () => {
    const { engine, projectId, root, store } = await projectWithBaseline({ 'doc.txt': GOOD });
    const hash = sha256(GOOD);
    const [baseline] = engine.versions(projectId, 'doc.txt');
    rmSync(join(root, 'doc.txt'));
    await engine.rescan(projectId);
    flipByte(blobPath(store.blobs.dir, hash));
    // A reader finds the damage: refused, and marked.
    await expect(readBack(engine, projectId, 'doc.txt', baseline!.versionId)).rejects.toMatchObject({ code: 'BLOB_CORRUPT' });
    expect(store.index.damage.damagedHashes()).toEqual([hash]);

    writeFileSync(join(root, 'copy.txt'), GOOD);
    notRacy(store);
    await engine.rescan(projectId);
    expect(blobIntact(store.blobs.dir, hash)).toBe(true);
    expect(store.index.damage.damagedHashes()).toEqual([]);
    expect(await readBack(engine, projectId, 'doc.txt', baseline!.versionId)).toBe(GOOD);
    expect(await readBack(engine, projectId, 'copy.txt')).toBe(GOOD);
  });

  it('is written again by a rescan from an unchanged file that still holds its bytes', async () => {
    const { engine, projectId, store } = await projectWithBaseline({ 'doc.txt': GOOD, 'other.txt': 'x' });
    const hash = sha256(GOOD);
    flipByte(blobPath(store.blobs.dir, hash));
    expect((await engine.verify(projectId)).corrupt.map((p) => p.hash)).toEqual([hash]);
    // Nothing changed on disk: the rescan hashes no file of its own accord, yet repairs the blob.
    const rescan = await engine.rescan(projectId);
    expect(rescan.hashed).toBe(0);
    expect(blobIntact(store.blobs.dir, hash)).toBe(true);
    expect((await engine.verify(projectId)).ok).toBe(true);
  });

  it('found by the search index build through the one reader: marked, left out, and searched again once repaired', async () => {
    const { engine, projectId, root, store } = await projectWithBaseline({ 'doc.txt': GOOD, 'other.txt': 'other words\n' });
    const hash = sha256(GOOD);
    flipByte(blobPath(store.blobs.dir, hash));
    const search = () => engine.search(projectId, { query: 'every version', regex: false, caseSensitive: false, limit: 10 });
    await engine.buildSearchIndex(projectId);
    expect(store.index.damage.damagedHashes()).toEqual([hash]);
    expect(store.index.search.blobTextState(hash)).toBe('unreadable');
    expect((await search()).results).toEqual([]);

    writeFileSync(join(root, 'copy.txt'), GOOD);
    notRacy(store);
    await engine.rescan(projectId);
    expect(store.index.damage.damagedHashes()).toEqual([]);
    await engine.buildSearchIndex(projectId);
    expect(store.index.search.blobTextState(hash)).toBe('text');
    expect((await search()).results.map((hit) => hit.path).sort()).toEqual(['copy.txt', 'doc.txt']);
  });

  it('is written again from a bundle of the same history that carries its checked bytes', async () => {
    const { engine, projectId, root, store } = await projectWithBaseline({ 'doc.txt': GOOD });
    const hash = sha256(GOOD);
    const bundle = join(tempDir(), 'history.hsb');
    await engine.exportHistory(projectId, { file: bundle });
    flipByte(blobPath(store.blobs.dir, hash));
    expect((await engine.verify(projectId)).corrupt.map((p) => p.hash)).toEqual([hash]);
    // The file is gone from the folder: the bundle is the only place its bytes are.
    rmSync(join(root, 'doc.txt'));

    const imported = await engine.importHistory({ file: bundle });
    expect(imported.blobsWritten).toBe(1);
    expect(blobIntact(store.blobs.dir, hash)).toBe(true);
    expect(store.index.damage.damagedHashes()).toEqual([]);
    expect((await engine.verify(projectId)).ok).toBe(true);
  });

  it('verify --repair looks for the right bytes in the folder and says what it repaired and what stays lost, exit 1 while any does', async () => {
    const root = tempDir();
    const dataDir = tempDir('hindsight-data-');
    writeTree(root, { 'keep/doc.txt': GOOD, 'gone.txt': LOST });
    expect((await runCli(['open', root, '--data-dir', dataDir])).code).toBe(0);
    writeFileSync(join(root, 'gone.txt'), 'edited since\n');
    expect((await runCli(['open', root, '--data-dir', dataDir])).code).toBe(0); // a rescan: gone.txt's old bytes are only in the store now
    const verifyJson = async (...flags: string[]) => {
      const result = await runCli(['verify', root, '--data-dir', dataDir, '--json', ...flags]);
      return { code: result.code, value: JSON.parse(result.stdout.toString('utf8')) as VerifyResult, stderr: result.stderr };
    };
    const blobsDir = join(dataDir, 'projects', readdirOne(join(dataDir, 'projects')), 'blobs');
    flipByte(blobPath(blobsDir, sha256(GOOD)));
    flipByte(blobPath(blobsDir, sha256(LOST)));

    const found = await verifyJson();
    expect(found.code).toBe(1);
    expect(found.value.corrupt.map((p) => p.hash).sort()).toEqual([sha256(GOOD), sha256(LOST)].sort());
    expect(found.value.repaired).toEqual([]);
    expect(found.stderr).toContain('verify --repair');

    const repaired = await verifyJson('--repair');
    expect(repaired.code).toBe(1);
    expect(repaired.value.repaired).toEqual([{ hash: sha256(GOOD), versions: [expect.objectContaining({ path: 'keep/doc.txt' })] }]);
    expect(repaired.value.corrupt).toEqual([{ hash: sha256(LOST), versions: [expect.objectContaining({ path: 'gone.txt' })] }]);
    expect(repaired.value.ok).toBe(false);
    expect(blobIntact(blobsDir, sha256(GOOD))).toBe(true);
    expect(repaired.stderr).toContain('still missing or corrupt');

    // The human answer lists both.
    const human = await runCli(['verify', root, '--data-dir', dataDir, '--repair']);
    expect(human.stdout.toString('utf8')).toContain(`corrupt ${sha256(LOST)}: gone.txt (version`);
    expect(human.code).toBe(1);

    // A restore of the lost version is refused by name; the file on disk is kept.
    const lostVersion = String(repaired.value.corrupt[0]!.versions[0]!.versionId);
    const restore = await runCli(['restore', root, join(root, 'gone.txt'), '--version', lostVersion, '--data-dir', dataDir]);
    expect(restore.code).toBe(1);
    expect(restore.stderr).toContain(`gone.txt (version ${lostVersion})`);
    expect(readFileSync(join(root, 'gone.txt'), 'utf8')).toBe('edited since\n');
    // show hands out none of its bytes.
    const show = await runCli(['show', root, join(root, 'gone.txt'), '--version', lostVersion, '--data-dir', dataDir]);
    expect([show.code, show.stdout.length]).toEqual([1, 0]);
    expect(show.stderr).toContain('are damaged');
  });
});

function readdirOne(dir: string): string {
  const names = readdirSync(dir);
  expect(names).toHaveLength(1);
  return names[0]!;
}
