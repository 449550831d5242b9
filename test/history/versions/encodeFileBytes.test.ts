import { describe, expect, it } from 'vitest';
import { encodeFileBytes, utf8Boundary } from '../../../electron/history/versions/encodeFileBytes.js';

// The viewer's bytes: text cut on a character boundary, binary as base64, and a truncated marker
// with the whole size whenever fewer bytes travel than the file holds.

const source = (bytes: Buffer, size = bytes.length) => ({ path: 'f', versionId: 1, type: 'file' as const, mode: 0o644, size, bytes });

describe('encodeFileBytes', () => {
  it('cuts UTF-8 text before a character the cap would split', () => {
    const text = Buffer.from('ab€cd', 'utf8'); // € is 3 bytes: a b [e2 82 ac] c d
    for (const cap of [3, 4]) {
      const out = encodeFileBytes(source(text), cap);
      expect(out).toMatchObject({ encoding: 'utf8', data: 'ab', truncated: true, returnedBytes: 2, size: 7, binary: false });
    }
    expect(encodeFileBytes(source(text), 5)).toMatchObject({ data: 'ab€', returnedBytes: 5, truncated: true });
    expect(encodeFileBytes(source(text), 7)).toMatchObject({ data: 'ab€cd', truncated: false });
  });

  it('marks a head read from a larger file as truncated even when every read byte is sent', () => {
    expect(encodeFileBytes(source(Buffer.from('abc'), 10), 3)).toMatchObject({ data: 'abc', truncated: true, size: 10 });
  });

  it('sends binary and invalid UTF-8 as base64', () => {
    const bytes = Buffer.from([0x00, 0xff, 0x10]);
    expect(encodeFileBytes(source(bytes), 100)).toMatchObject({ encoding: 'base64', binary: true, data: bytes.toString('base64') });
    expect(encodeFileBytes(source(Buffer.from([0xc3, 0x28])), 100)).toMatchObject({ encoding: 'base64', binary: true });
  });

  it('finds the boundary for 2, 3 and 4 byte sequences', () => {
    for (const ch of ['é', '€', '😀']) {
      const whole = Buffer.from(`x${ch}`, 'utf8');
      for (let cut = 2; cut < whole.length; cut++) expect(utf8Boundary(whole.subarray(0, cut))).toBe(1);
      expect(utf8Boundary(whole)).toBe(whole.length);
    }
  });
});
