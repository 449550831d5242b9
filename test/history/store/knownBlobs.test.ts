import Database from 'better-sqlite3';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileRegularFile } from '../../../electron/history/store/fileIntoStore.js';
import { blobPath, historyDbPath } from '../../../electron/history/store/storeLayout.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { chunksOf } from '../../helpers/storedBlob.js';
import { seededBytes, sha256 } from '../../helpers/writeTree.js';
import { projectWithBaseline } from '../versions/versionsHelpers.js';

// The blobs a writer trusts without looking at the disk: the ones the index names, in one query,
// never a damaged one (its bytes must be written again) nor one a prune marked for collection
// (its file may be deleted at any time).

describe('the known blobs', () => {
  it('are the blobs the index names, less the damaged and the marked ones', async () => {
    const { store } = await projectWithBaseline({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n', 'c.txt': 'gamma\n' });
    expect(store.index.blobRecords.trustedHashes().sort()).toEqual([sha256('alpha\n'), sha256('beta\n'), sha256('gamma\n')].sort());
    store.index.damage.markDamaged(sha256('alpha\n'), 'corrupt');
    const db = new Database(historyDbPath(store.storeDir));
    try {
      db.prepare('INSERT INTO blob_marks (hash, since) VALUES (?, ?)').run(sha256('beta\n'), Date.now());
    } finally {
      db.close();
    }
    expect(store.index.blobRecords.trustedHashes()).toEqual([sha256('gamma\n')]);
  });

  it('hold the chunks of a list, less those of a damaged list and the damaged chunks', async () => {
    const big = seededBytes(21, 3 * 1024 * 1024);
    const { store } = await projectWithBaseline({ 'big.bin': big, 'a.txt': 'alpha\n' });
    const list = sha256(big);
    const chunks = chunksOf(store.blobs.dir, list);
    expect(chunks.length).toBeGreaterThan(1);
    expect(store.index.blobRecords.trustedHashes().sort()).toEqual([list, sha256('alpha\n'), ...chunks].sort());
    store.index.damage.markDamaged(chunks[0]!, 'corrupt');
    expect(store.index.blobRecords.trustedHashes().sort()).toEqual([list, sha256('alpha\n'), ...chunks.slice(1)].sort());
    store.index.damage.markDamaged(list, 'corrupt');
    expect(store.index.blobRecords.trustedHashes()).toEqual([sha256('alpha\n')]);
  });

  it('answer whether a blob is stored: a hash in the set is not written, one outside it is, and joins it', () => {
    const blobsDir = tempDir('hindsight-blobs-');
    const source = join(tempDir(), 'f.txt');
    writeFileSync(source, 'some bytes\n');
    const hash = sha256('some bytes\n');

    // Trusted from the set: not written (no blob file appears), reported as already stored.
    const trusting = fileRegularFile(source, blobsDir, { cloneMode: 'never', known: new Set([hash]) });
    expect(trusting).toMatchObject({ kind: 'filed', hash, created: false });
    expect(existsSync(blobPath(blobsDir, hash))).toBe(false);

    // Not in the set: written, and added to it, so the same bytes again are not written twice.
    const known = new Set<string>();
    expect(fileRegularFile(source, blobsDir, { cloneMode: 'never', known })).toMatchObject({ kind: 'filed', hash, created: true });
    expect(existsSync(blobPath(blobsDir, hash))).toBe(true);
    expect(known.has(hash)).toBe(true);
    expect(fileRegularFile(source, blobsDir, { cloneMode: 'never', known })).toMatchObject({ created: false });

    // Longer files (read whole) and large ones (in chunks: the list and each chunk) answer from the set too.
    const mid = join(tempDir(), 'mid.bin');
    writeFileSync(mid, Buffer.alloc(300 * 1024, 7));
    const midKnown = new Set<string>();
    expect(fileRegularFile(mid, blobsDir, { cloneMode: 'never', known: midKnown, smallLimit: 1024 })).toMatchObject({
      kind: 'filed',
      created: true,
      method: 'whole',
    });
    expect(midKnown.size).toBe(1);
    expect(fileRegularFile(mid, blobsDir, { cloneMode: 'never', known: midKnown, smallLimit: 1024 })).toMatchObject({ created: false });
    const big = join(tempDir(), 'big.bin');
    writeFileSync(big, seededBytes(9, 3 * 1024 * 1024));
    const bigKnown = new Set<string>();
    const first = fileRegularFile(big, blobsDir, { cloneMode: 'never', known: bigKnown });
    expect(first).toMatchObject({ kind: 'filed', created: true, method: 'chunked' });
    expect(bigKnown.size).toBe(1 + (first as { chunks: unknown[] }).chunks.length);
    expect(fileRegularFile(big, blobsDir, { cloneMode: 'never', known: bigKnown })).toMatchObject({ created: false });
  });
});
