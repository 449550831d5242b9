import { describe, expect, it } from 'vitest';
import { BlobUndecodable, COMPRESS_UP_TO, compressBlob, decompressBlob } from '../../../electron/history/codec/blobCodec.js';

// A compressed blob inflates into one output piece of its recorded length plus one byte
// (codec/blobCodec.ts), not zlib's 16 KiB pieces copied together: every length it may have comes
// back whole, and a frame inflating past the recorded length still fills the byte past it and is
// refused. (zlib joins its pieces through a Buffer.concat of its own, out of a test's reach: the
// pieces are not counted here.)

describe('a compressed blob inflated in one piece', () => {
  it('comes back whole at the shortest, a middle and the longest compressed length', () => {
    for (const size of [4097, 100_000, COMPRESS_UP_TO]) {
      const raw = Buffer.from('static int main(void) { return 0; }\n'.repeat(Math.ceil(size / 30)).slice(0, size));
      const stored = compressBlob(raw)!;
      expect(stored, `${size}`).toBeDefined();
      expect(decompressBlob(stored, size).equals(raw)).toBe(true);
    }
  });

  it('is refused when its frame inflates past the recorded length, by one byte or many', () => {
    const raw = Buffer.from('x'.repeat(200_000));
    for (const recorded of [raw.length - 1, 5_000]) {
      const stored = compressBlob(raw)!;
      stored.writeBigUInt64BE(BigInt(recorded), 4);
      expect(() => decompressBlob(stored)).toThrow(BlobUndecodable);
      expect(() => decompressBlob(stored)).toThrow(/inflates past/);
    }
  });
});
