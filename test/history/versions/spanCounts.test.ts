import { describe, expect, it } from 'vitest';
import { bytesInCommon, spanCounts, BINARY_PROBE } from '../../../electron/history/versions/spanCounts.js';
import { seededRandom } from '../../bench/fixtures/seededRandom.js';

// A blob is read a MiB at a time: its spans must not depend on where the pieces are cut (a CR
// ending one piece and its LF starting the next, the binary probe's 8,000 bytes across pieces).
// The scores themselves are compared with git's in renamesLikeGit.test.ts.

const asMap = (pieces: Uint8Array[], lastLine?: boolean) => [...spanCounts(pieces, { lastLine }).entries()].sort((a, b) => a[0] - b[0]);

describe('spanCounts', () => {
  it('gives the same spans wherever the bytes are cut into pieces', () => {
    const random = seededRandom(99);
    const alphabet = Buffer.from('ab\r\n\r\n xyz\n');
    for (let round = 0; round < 40; round++) {
      const size = 1 + Math.floor(random() * (round < 20 ? 300 : BINARY_PROBE + 400));
      const bytes = Buffer.from(Array.from({ length: size }, () => alphabet[Math.floor(random() * alphabet.length)]!));
      if (round % 4 === 3) bytes[Math.floor(random() * size)] = 0;
      const whole = asMap([bytes]);
      const cuts = [0, ...Array.from({ length: 3 }, () => Math.floor(random() * size)), size].sort((a, b) => a - b);
      const pieces = cuts.slice(1).map((end, i) => bytes.subarray(cuts[i], end));
      expect(asMap(pieces)).toEqual(whole);
      // Cut right after every CR: the LF that follows comes in the next piece.
      const atCr = [...bytes.keys()].filter((i) => bytes[i] === 0x0d).map((i) => i + 1);
      const crPieces = [0, ...atCr, size].slice(1).map((end, i, ends) => bytes.subarray(i === 0 ? 0 : ends[i - 1], end));
      expect(asMap(crPieces)).toEqual(whole);
    }
  });

  it("leaves out a text file's CR before LF, not a binary file's; a NUL past the first 8,000 bytes keeps a file text", () => {
    const lf = spanCounts([Buffer.from('one\ntwo\n')]);
    expect(bytesInCommon(spanCounts([Buffer.from('one\r\ntwo\r\n')]), lf)).toBe(8);
    expect(bytesInCommon(spanCounts([Buffer.from('one\r\ntwo\r\n\0')]), lf)).toBe(0);
    const late = Buffer.concat([Buffer.alloc(BINARY_PROBE, 'a'), Buffer.from('\0x\r\n')]);
    expect([...spanCounts([late]).values()].reduce((a, b) => a + b)).toBe(late.length - 1);
  });

  it('counts the bytes after the last newline unless told not to (git before 2.44)', () => {
    expect(asMap([Buffer.from('a\ntail')])).toHaveLength(2);
    expect(asMap([Buffer.from('a\ntail')], false)).toHaveLength(1);
  });
});
