import { describe, expect, it } from 'vitest';
import { AVG_CHUNK, ChunkCutter, MAX_CHUNK, MIN_CHUNK } from '../../../electron/history/codec/fastCdc.js';
import { logBytes } from '../../helpers/logBytes.js';
import { seededBytes, sha256 } from '../../helpers/writeTree.js';

// FastCDC's cuts: where they fall depends on the bytes only (not on how they are read), chunks
// stay within their bounds, and an edit changes only the chunks around it.

function cut(bytes: Buffer, piece = 1024 * 1024): string[] {
  const chunks: string[] = [];
  const cutter = new ChunkCutter((chunk) => chunks.push(`${sha256(chunk)}:${chunk.length}`));
  for (let at = 0; at < bytes.length; at += piece) cutter.push(bytes.subarray(at, at + piece));
  cutter.end();
  return chunks;
}

const sizes = (chunks: string[]) => chunks.map((c) => Number(c.split(':')[1]));

describe('content-defined chunks (FastCDC)', () => {
  it('cut the same bytes the same way however they are read', () => {
    const bytes = seededBytes(3, 9 * 1024 * 1024 + 17);
    const whole = cut(bytes, bytes.length);
    expect(cut(bytes, 1024 * 1024)).toEqual(whole);
    expect(cut(bytes, 65_537)).toEqual(whole);
    expect(sizes(whole).reduce((a, b) => a + b, 0)).toBe(bytes.length);
  });

  it('keep every chunk but the last between the minimum and the maximum, around the average', () => {
    const bytes = Buffer.concat([seededBytes(5, 24 * 1024 * 1024), Buffer.alloc(9 * 1024 * 1024)]);
    const all = sizes(cut(bytes));
    for (const size of all.slice(0, -1)) {
      expect(size).toBeGreaterThanOrEqual(MIN_CHUNK);
      expect(size).toBeLessThanOrEqual(MAX_CHUNK);
    }
    // Nine MiB of zeros has no cut: it is cut at the maximum.
    expect(all.filter((size) => size === MAX_CHUNK).length).toBeGreaterThanOrEqual(2);
    const random = sizes(cut(seededBytes(5, 24 * 1024 * 1024))).slice(0, -1);
    const mean = random.reduce((a, b) => a + b, 0) / random.length;
    expect(mean).toBeGreaterThan(AVG_CHUNK * 0.6);
    expect(mean).toBeLessThan(AVG_CHUNK * 1.6);
  });

  it('share every chunk but the last after an append, and all but those around an insertion', () => {
    const log = logBytes(1, 20 * 1024 * 1024);
    const before = cut(log);
    const appended = cut(Buffer.concat([log, logBytes(2, 1024)]));
    const kept = new Set(before);
    expect(appended.filter((c) => !kept.has(c)).length).toBe(1);
    expect(appended.slice(0, -1)).toEqual(before.slice(0, -1));

    const at = 10 * 1024 * 1024;
    const inserted = cut(Buffer.concat([log.subarray(0, at), Buffer.from('one more line\n'), log.subarray(at)]));
    const fresh = inserted.filter((c) => !kept.has(c));
    expect(fresh.length).toBeGreaterThanOrEqual(1);
    expect(fresh.length).toBeLessThanOrEqual(2);
  });
});
