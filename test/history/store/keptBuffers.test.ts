import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileRegularFile } from '../../../electron/history/store/fileIntoStore.js';
import { decompressBlob } from '../../../electron/history/codec/blobCodec.js';
import { compressedBlobPath } from '../../../electron/history/store/storeLayout.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { seededBytes, sha256 } from '../../helpers/writeTree.js';

// A copy worker keeps the buffers it files with from one file to the next (store/fileIntoStore.ts
// readAll's scratch, store/fileInChunks.ts's chunk and piece): made per file, they were garbage
// that V8 collects only once 64 MiB more of it is outside its heap, so each worker held about
// that much more than it used. Counted by store.readBuffersMade and store.chunkBuffersMade.

/** Text that compresses, `size` bytes, different for each `seed`. */
function text(seed: number, size: number): Buffer {
  const noise = seededBytes(seed, 1024).toString('hex');
  let out = '';
  for (let line = 0; out.length < size; line++) out += `line ${line} of ${seed}: ${noise.slice(line % 900, (line % 900) + 80)}\n`;
  return Buffer.from(out.slice(0, size));
}

describe('buffers kept by a filing thread', () => {
  it('reads twelve files of 70 KiB to 1 MiB into one buffer grown at most five times, and files them byte-exact', () => {
    const dir = tempDir();
    const blobsDir = join(dir, 'blobs');
    mkdirSync(blobsDir);
    const sizes = [70_000, 1024 * 1024, 200_000, 900_000, 300_000, 1024 * 1024, 66_000, 500_000, 700_000, 1000, 1024 * 1024 - 1, 80_000];
    resetTrace();
    sizes.forEach((size, i) => {
      const file = join(dir, `f${i}.txt`);
      const bytes = text(i + 1, size);
      writeFileSync(file, bytes);
      const outcome = fileRegularFile(file, blobsDir, { cloneMode: 'never', known: new Set() });
      expect(outcome.kind).toBe('filed');
      if (outcome.kind !== 'filed') return;
      expect(outcome.hash).toBe(sha256(bytes));
      if (size > 4096) expect(decompressBlob(readFileSync(compressedBlobPath(blobsDir, outcome.hash))).equals(bytes)).toBe(true);
    });
    // 64 KiB + 1, then doubled up to 1 MiB + 1: five sizes at most, whatever the number of files.
    expect(counter('store.readBuffersMade')).toBeLessThanOrEqual(5);
  });

  it('files three large files with one chunk buffer and one read piece', () => {
    const dir = tempDir();
    const blobsDir = join(dir, 'blobs');
    mkdirSync(blobsDir);
    resetTrace();
    for (let i = 0; i < 3; i++) {
      const file = join(dir, `large${i}.bin`);
      const bytes = Buffer.concat([seededBytes(100 + i, 3 * 1024 * 1024), text(i, 3 * 1024 * 1024)]);
      writeFileSync(file, bytes);
      const outcome = fileRegularFile(file, blobsDir, { cloneMode: 'never', known: new Set() });
      expect(outcome.kind === 'filed' && outcome.method).toBe('chunked');
      expect(outcome.kind === 'filed' && outcome.hash).toBe(sha256(bytes));
    }
    expect(counter('store.chunkBuffersMade')).toBe(1);
  });
});
