import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ChunkedOutput, MAX_CHUNK, MIN_CHUNK } from '../../../electron/history/git/chunkedOutput.js';

// The output buffer of a git call: what is written comes back joined exactly, the chunks never
// move and stay few, and what it allocates stays near 2x the output where a doubling buffer and a
// final copy take 3x or more.

const KiB = 1024;
const MiB = 1024 * KiB;
/** 4 chunks of 64 bytes, then 1.25x per chunk up to 8 MiB chunks: far below this at any size tested. */
const MAX_CHUNKS = 80;

/** The buffer this replaced, for comparison: grows to twice its capacity plus the write by copying
 * (as Go's bytes.Buffer did), then copies once more to return. */
class DoublingBuffer {
  private buf = Buffer.alloc(0);
  private n = 0;
  allocated = 0;
  write(bytes: Uint8Array): void {
    if (this.n + bytes.length > this.buf.length) {
      const next = Buffer.allocUnsafeSlow(2 * this.buf.length + bytes.length);
      this.allocated += next.length;
      this.buf.copy(next, 0, 0, this.n);
      this.buf = next;
    }
    this.buf.set(bytes, this.n);
    this.n += bytes.length;
  }
  join(): Buffer {
    this.allocated += this.n;
    return Buffer.from(this.buf.subarray(0, this.n));
  }
}

function writeInPieces(out: { write(b: Uint8Array): unknown }, data: Buffer, piece: number, check?: () => void): void {
  for (let at = 0; at < data.length; at += piece) {
    out.write(data.subarray(at, at + piece));
    check?.();
  }
}

describe('ChunkedOutput', () => {
  it('joins what was written, for odd write sizes, holding it in few chunks after every write', () => {
    const data = randomBytes(3 * MiB + 17);
    for (const piece of [1, 7, 63, 64, 65, 4093, 32 * KiB, 65 * KiB + 3, 1 * MiB + 1]) {
      const out = new ChunkedOutput();
      let written = 0;
      writeInPieces(out, data.subarray(0, piece === 1 ? 20 * KiB : data.length), piece, () => {
        written = Math.min(written + piece, piece === 1 ? 20 * KiB : data.length);
        // Plain checks: an expect() per write would cost more than the writes.
        if (out.size !== written) throw new Error(`holds ${out.size} bytes after ${written} written (piece ${piece})`);
        if (out.chunkCount > MAX_CHUNKS) throw new Error(`${out.chunkCount} chunks after ${written} bytes (piece ${piece})`);
      });
      const expected = data.subarray(0, written);
      expect(out.join().equals(expected)).toBe(true);
      expect(out.join().equals(expected)).toBe(true); // joined once: a second join is the same bytes
    }
  });

  it('allocates at most 2.5x a 16 MiB output written in 32 KiB pieces; a doubling buffer takes 3x or more', () => {
    const data = randomBytes(16 * MiB);
    const out = new ChunkedOutput();
    writeInPieces(out, data, 32 * KiB);
    const joined = out.join();
    expect(joined.length).toBe(data.length);
    expect(joined.equals(data)).toBe(true);
    expect(out.allocations.bytes).toBeLessThanOrEqual(2.5 * data.length);

    const doubling = new DoublingBuffer();
    writeInPieces(doubling, data, 32 * KiB);
    doubling.join();
    expect(doubling.allocated).toBeGreaterThanOrEqual(3 * data.length);
  });

  it('costs a bounded number of allocations at 1 MiB and 16 MiB', () => {
    for (const [size, most] of [
      [1 * MiB, 30],
      [16 * MiB, 45],
    ] as const) {
      const out = new ChunkedOutput();
      writeInPieces(out, randomBytes(size), 32 * KiB);
      out.join();
      expect(out.allocations.count).toBeLessThanOrEqual(most);
    }
  });

  it('costs at most 3 allocations for a small output, also written a byte at a time', () => {
    const small = Buffer.from('4b825dc642cb6eb9a060e54bf8d69288fbee4904\n'); // 41 bytes
    for (const piece of [small.length, 1]) {
      const out = new ChunkedOutput();
      writeInPieces(out, small, piece);
      expect(out.join().toString()).toBe(small.toString());
      expect(out.allocations.count).toBeLessThanOrEqual(3);
    }
  });

  it('keeps the unused tail of the last chunk within a quarter of the output and under 8 MiB', () => {
    for (const [size, piece] of [
      [5 * MiB + 3, 32 * KiB],
      [40 * MiB + 1, 64 * KiB],
      [100 * KiB, 1000],
    ] as const) {
      const out = new ChunkedOutput();
      const data = Buffer.alloc(size, 'x');
      writeInPieces(out, data, piece, () => {
        if (out.spare > Math.max(out.size / 4, MIN_CHUNK) || out.spare >= MAX_CHUNK) {
          throw new Error(`${out.spare} unused bytes after ${out.size} written`);
        }
      });
    }
  });

  it('keeps a write larger than a quarter in one chunk of its size', () => {
    const out = new ChunkedOutput();
    out.write(Buffer.alloc(1000, 1));
    out.write(Buffer.alloc(5000, 2));
    expect(out.chunkCount).toBe(2);
    expect(out.allocations.bytes).toBe(6000);
  });

  it('counts the output once against the allowance and refuses the rest', () => {
    const out = new ChunkedOutput(100);
    expect(out.write(Buffer.alloc(60, 1))).toBe(true);
    expect(out.write(Buffer.alloc(60, 2))).toBe(false);
    expect(out.overflowed).toBe(true);
    expect(out.size).toBe(100);
    const joined = out.join();
    expect(joined.length).toBe(100);
    expect(joined.subarray(0, 60).every((b) => b === 1)).toBe(true);
    expect(joined.subarray(60).every((b) => b === 2)).toBe(true);
    // Never a chunk past what the allowance admits.
    expect(out.allocations.bytes).toBeLessThanOrEqual(100 + 100);
  });

  it('takes reads straight into its chunks (space, commit): same bounds, no copy before the join', () => {
    const data = randomBytes(16 * MiB);
    const out = new ChunkedOutput();
    let at = 0;
    while (at < data.length) {
      const room = out.space(64 * KiB);
      const n = Math.min(room.length, 64 * KiB, data.length - at);
      data.copy(room, 0, at, at + n); // what libuv's read does
      out.commit(n);
      at += n;
      if (out.chunkCount > MAX_CHUNKS) throw new Error(`${out.chunkCount} chunks after ${at} bytes`);
    }
    expect(out.join().equals(data)).toBe(true);
    expect(out.allocations.bytes).toBeLessThanOrEqual(2.5 * data.length);
    expect(out.allocations.count).toBeLessThanOrEqual(45);

    const small = new ChunkedOutput();
    Buffer.from('0123456789abcdef0123456789abcdef01234567\n').copy(small.space(64 * KiB));
    small.commit(41);
    expect(small.join().toString()).toBe('0123456789abcdef0123456789abcdef01234567\n');
    expect(small.allocations.count).toBeLessThanOrEqual(3);
  });

  it('refuses reads past the allowance', () => {
    const out = new ChunkedOutput(100);
    expect(out.space(64 * KiB).length).toBe(100);
    expect(out.commit(100)).toBe(true);
    out.space(64 * KiB); // a scratch region: what lands there is not kept
    expect(out.commit(1)).toBe(false);
    expect(out.size).toBe(100);
    expect(out.overflowed).toBe(true);
  });
});
