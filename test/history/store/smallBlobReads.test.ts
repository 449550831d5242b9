import { describe, expect, it } from 'vitest';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportBundleTo } from '../../../electron/history/bundle/bundleTransfer.js';
import { blobPath } from '../../../electron/history/store/storeLayout.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { sha256, type TreeSpec } from '../../helpers/writeTree.js';
import { projectWithBaseline } from '../versions/versionsHelpers.js';

// A blob of at most 4 KiB is always one raw file: read whole, its length is told by the read
// itself (one byte more asked for than recorded), not by a stat, so an export's read-ahead or a
// search opens, reads and closes each small blob and asks nothing else. A file of another length
// is still BLOB_CORRUPT, and a missing one BLOB_MISSING.

const FILES = 40;

function smallFiles(): TreeSpec {
  const spec: TreeSpec = {};
  for (let i = 0; i < FILES; i++) spec[`d${i % 4}/f${i}.txt`] = `small file ${i}\n`.repeat(1 + i);
  return spec;
}

describe('reading small blobs whole', () => {
  it('stats no small blob on an export read ahead on threads', async () => {
    const { store } = await projectWithBaseline(smallFiles());
    resetTrace();
    await exportBundleTo(store, { file: join(tempDir(), 'out.hsb') }, { readAhead: { blobsPerThread: 1 } });
    expect(counter('push.workerBlobs')).toBe(FILES);
    expect(counter('store.rawLengthStats')).toBe(0);
  });

  it('refuses a small blob file longer or shorter than recorded, and names a missing one', async () => {
    const spec = smallFiles();
    const { store } = await projectWithBaseline(spec);
    const scratch = { buffer: Buffer.alloc(16) };
    const text = (i: number) => spec[`d${i % 4}/f${i}.txt`] as string;
    const size = (i: number) => Buffer.byteLength(text(i));

    expect(store.blobs.whole(sha256(text(7)), size(7), scratch).toString()).toBe(text(7));
    appendFileSync(blobPath(store.blobs.dir, sha256(text(3))), 'x');
    writeFileSync(blobPath(store.blobs.dir, sha256(text(5))), text(5).slice(0, -1));
    expect(() => store.blobs.whole(sha256(text(3)), size(3), scratch)).toThrow(
      expect.objectContaining({ code: 'BLOB_CORRUPT', message: expect.stringContaining(`${size(3) + 1} bytes where ${size(3)} were stored`) }),
    );
    expect(() => store.blobs.whole(sha256(text(5)), size(5), scratch)).toThrow(
      expect.objectContaining({ code: 'BLOB_CORRUPT', message: expect.stringContaining(`${size(5) - 1} bytes where ${size(5)} were stored`) }),
    );
    expect(() => store.blobs.whole(sha256('never stored'), 12, scratch)).toThrow(expect.objectContaining({ code: 'BLOB_MISSING' }));
  });
});
