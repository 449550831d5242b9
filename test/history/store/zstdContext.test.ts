import { describe, expect, it } from 'vitest';
import { closeSync, mkdirSync, openSync, readSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import { compressBlob, compressBlobLent, decompressBlob } from '../../../electron/history/codec/blobCodec.js';
import { fileInChunks } from '../../../electron/history/store/fileInChunks.js';
import { ZstdContext, zstdBound } from '../../../electron/history/codec/zstdContext.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { seededRandom } from '../../bench/fixtures/seededRandom.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { seededBytes } from '../../helpers/writeTree.js';

// The copy workers compress every chunk through one kept zstd context writing into one kept
// buffer (codec/zstdContext.ts): zstdCompressSync made a native context and fresh output buffers
// per chunk, garbage V8 collects only 64 MiB later, per worker. The frames must stay the ones
// zstdCompressSync makes (checked against it on generated blobs), and a filing of many chunks
// makes one context, not one per chunk (trace counter store.zstdContexts).

/** Bytes between half-compressible text and noise, of `size`, from `random`. */
function generatedBlob(random: () => number, size: number): Buffer {
  const out = Buffer.allocUnsafe(size);
  const noise = seededBytes(Math.floor(random() * 2 ** 31) + 1, Math.min(size, 64 * 1024));
  const words = ['store', 'chunk', 'value', ' ', '\n', '{', '}', 'return ', 'const '];
  let at = 0;
  while (at < size) {
    const run = Math.min(size - at, 1 + Math.floor(random() * 4096));
    if (random() < 0.3) out.set(noise.subarray(0, run), at);
    else {
      let text = '';
      while (text.length < run) text += words[Math.floor(random() * words.length)]!;
      out.write(text.slice(0, run), at, 'latin1');
    }
    at += run;
  }
  return out;
}

const SIZES = [4097, 5000, 64 * 1024, 128 * 1024 - 1, 128 * 1024, 300_000, 1024 * 1024, 4 * 1024 * 1024];

describe('the kept zstd context', () => {
  it('makes the frames zstdCompressSync makes in one piece, from one native context, on 64 generated blobs (seed 45)', () => {
    const random = seededRandom(45);
    const context = new ZstdContext(3);
    resetTrace();
    for (let i = 0; i < 64; i++) {
      const size = i < SIZES.length ? SIZES[i]! : 4097 + Math.floor(random() * (4 * 1024 * 1024 - 4097));
      const blob = generatedBlob(random, size);
      // Every other blob a view that starts inside its memory, as a chunk cut from a read buffer may.
      const raw = i % 2 === 0 ? blob : Buffer.concat([Buffer.from('offset!'), blob]).subarray(7);
      // zstdCompressSync given room for the whole frame at once (with its default 16 KiB of room
      // zstd compresses in its streaming mode, whose frames differ by a few tenths of a percent).
      const reference = zstdCompressSync(raw, {
        params: { [constants.ZSTD_c_compressionLevel]: 3 },
        pledgedSrcSize: raw.length,
        chunkSize: zstdBound(raw.length),
      });
      const lent = context.compressLent(raw, 12);
      expect(Buffer.compare(lent.subarray(12), reference), `blob ${i} of ${size} bytes`).toBe(0);
      expect(zstdDecompressSync(lent.subarray(12)).equals(raw)).toBe(true);
    }
    expect(counter('store.zstdContexts')).toBe(1);
  });

  it('lends a form valid until the next compression, and compressBlob hands an owned copy', () => {
    const first = Buffer.from('alpha '.repeat(2000));
    const second = Buffer.from('omega '.repeat(3000));
    const owned = compressBlob(first)!;
    const lent = compressBlobLent(first)!;
    expect(lent.equals(owned)).toBe(true);
    compressBlobLent(second);
    expect(decompressBlob(owned).equals(first)).toBe(true);
  });

  it('files a 24 MiB compressible file as chunks with at most one native context, not one per chunk', () => {
    const dir = tempDir();
    const blobsDir = join(dir, 'blobs');
    mkdirSync(blobsDir);
    const source = join(dir, 'log.txt');
    writeFileSync(source, generatedBlob(seededRandom(2), 24 * 1024 * 1024));
    resetTrace();
    const fd = openSync(source, 'r');
    let filing;
    try {
      filing = fileInChunks(
        (buffer) => readSync(fd, buffer, 0, buffer.length, null),
        blobsDir,
        { cancelled: () => false },
        { mkdirs: 0 },
        () => new Error('cancelled'),
      );
    } finally {
      closeSync(fd);
    }
    expect(filing.chunks!.length).toBeGreaterThan(5);
    expect(counter('store.compressions')).toBe(filing.chunks!.length);
    // This thread's context may have been made by an earlier test of this file: at most one.
    expect(counter('store.zstdContexts')).toBeLessThanOrEqual(1);
  });
});
