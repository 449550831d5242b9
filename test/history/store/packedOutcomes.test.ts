import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CopyPool } from '../../../electron/history/store/copyPool.js';
import { CopySlots } from '../../../electron/history/store/copySlots.js';
import { fileEntries } from '../../../electron/history/store/fileEntries.js';
import { walkFolder } from '../../../electron/history/walk/walkFolder.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree, type TreeSpec } from '../../helpers/writeTree.js';
import { BlobStore } from '../../../electron/history/store/blobStore.js';

// A copy worker hands a batch's outcomes back packed (store/packedOutcomes.ts): a few values per
// batch, not an object and four strings per file, which the history process's main thread would
// otherwise deserialize and keep until the commit. Counted on a real worker's real answer.

function tree(files: number): string {
  const root = tempDir();
  const spec: TreeSpec = {};
  for (let i = 0; i < files; i++) spec[`d${i % 10}/f${i}.txt`] = `file ${i}\n`.repeat(1 + (i % 7));
  writeTree(root, spec);
  return realpathSync(root);
}

/** Objects and strings reachable from a value, typed arrays counted as one object each. */
function heapValues(value: unknown, seen = new Set<unknown>()): { objects: number; strings: number } {
  if (typeof value === 'string') return { objects: 0, strings: 1 };
  if (value === null || typeof value !== 'object' || seen.has(value)) return { objects: 0, strings: 0 };
  seen.add(value);
  const total = { objects: 1, strings: 0 };
  if (ArrayBuffer.isView(value)) return total;
  for (const child of Object.values(value)) {
    const inner = heapValues(child, seen);
    total.objects += inner.objects;
    total.strings += inner.strings;
  }
  return total;
}

describe('a copy worker answer', () => {
  it('hands 1,000 files back in a few values, not an object per file', async () => {
    const pool = new CopyPool(new CopySlots(1), undefined, 1);
    onTestFinished(() => pool.close());
    const root = tree(1000);
    const files = Array.from({ length: 1000 }, (_, i) => join(root, `d${i % 10}/f${i}.txt`));
    const result = await pool.run({ blobsDir: tempDir('hindsight-blobs-'), cloneMode: 'never', files });
    const counted = heapValues(result);
    // The result, its outcomes, their numbers, details and methods: 5 objects, 1 text, whatever the file count.
    expect(counted.objects).toBeLessThanOrEqual(8);
    expect(counted.strings).toBeLessThanOrEqual(4);
  });

  it('still gives every file its hash, size, mode and stamps', async () => {
    const pool = new CopyPool(new CopySlots(2), undefined, 2);
    onTestFinished(() => pool.close());
    const root = tree(300);
    const entries = await walkFolder(root);
    const filed = await fileEntries(entries, { blobs: new BlobStore(tempDir('hindsight-blobs-')), pool, known: [] });
    expect(filed.versions).toHaveLength(300);
    for (const [i, version] of filed.versions.entries()) {
      const abs = join(root, version.path);
      const st = lstatSync(abs, { bigint: true });
      expect(version.hash).toBe(createHash('sha256').update(readFileSync(abs)).digest('hex'));
      expect(version.size).toBe(Number(st.size));
      expect(version.mode).toBe(Number(st.mode & 0o7777n));
      expect(filed.stats[i]).toMatchObject({
        path: version.path,
        hash: version.hash,
        mtimeNs: st.mtimeNs.toString(),
        ctimeNs: st.ctimeNs.toString(),
        ino: st.ino.toString(),
      });
    }
    expect(new Set(filed.blobs.map((b) => b.hash))).toEqual(new Set(filed.versions.map((v) => v.hash)));
  });
});
