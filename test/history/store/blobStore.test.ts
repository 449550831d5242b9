import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BlobStore } from '../../../electron/history/store/blobStore.js';
import type { BlobProblem } from '../../../electron/history/store/blobDamage.js';
import { blobPath } from '../../../electron/history/store/storeLayout.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { sha256 } from '../../helpers/writeTree.js';
import { projectWithBaseline } from '../versions/versionsHelpers.js';

// One BlobStore per project owns its blobs' reads, writes and damage: the damage a reader finds
// is told to that store's listeners (no registry shared by every store of the process), its
// ProjectStore marks it in the index, and no module outside store/ names the blob folder.

const HISTORY = join(import.meta.dirname, '../../../electron/history');

describe('a BlobStore', () => {
  it('writes and reads back bytes, tells its own listeners of damage, and no other store', () => {
    const dir = tempDir('hindsight-blobs-');
    const blobs = new BlobStore(dir);
    const other = new BlobStore(dir);
    const heard: [string, BlobProblem][] = [];
    const heardByOther: string[] = [];
    const stop = blobs.onDamage((hash, problem) => void heard.push([hash, problem]));
    other.onDamage((hash) => void heardByOther.push(hash));
    blobs.onDamage(() => {
      throw new Error('a listener that fails keeps the others told');
    });

    const bytes = Buffer.from('some bytes\n');
    const { hash, created } = blobs.put(bytes);
    expect(created).toBe(true);
    expect(blobs.has(hash)).toBe(true);
    expect(blobs.head(hash, 100, bytes.length).toString()).toBe('some bytes\n');

    rmSync(blobPath(dir, hash));
    expect(() => blobs.head(hash, 100, bytes.length)).toThrow(expect.objectContaining({ code: 'BLOB_MISSING' }));
    expect(heard).toEqual([[hash, 'missing']]);
    expect(heardByOther).toEqual([]);

    stop();
    expect(() => blobs.whole(hash, bytes.length, { buffer: Buffer.alloc(0) })).toThrow(expect.objectContaining({ code: 'BLOB_MISSING' }));
    expect(heard).toHaveLength(1);
  });

  it('is the one its ProjectStore marks damage from, whoever reads through it', async () => {
    const { store } = await projectWithBaseline({ 'doc.txt': 'recorded\n' });
    const hash = sha256('recorded\n');
    rmSync(blobPath(store.blobs.dir, hash));
    expect(store.index.damage.damagedHashes()).toEqual([]);
    expect(() => store.blobs.checkWhole(hash, 'recorded\n'.length)).toThrow(expect.objectContaining({ code: 'BLOB_MISSING' }));
    expect(store.index.damage.damagedHashes()).toEqual([hash]);
  });
});

describe('the blob folder', () => {
  it('is named by no module outside store/', () => {
    const naming = sources(HISTORY).filter((file) => !file.startsWith(join(HISTORY, 'store')) && /\bblobsDir\b/.test(readFileSync(file, 'utf8')));
    expect(naming.map((file) => relative(HISTORY, file))).toEqual([]);
  });
});

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}
