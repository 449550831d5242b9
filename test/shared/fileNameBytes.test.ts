import { describe, expect, it } from 'vitest';
import {
  bytesOfName,
  displayPath,
  hasRawBytes,
  lossyPath,
  nameFromBytes,
  parseDisplayPath,
  visibleLines,
  visibleLineText,
  visibleText,
} from '../../shared/fileNameBytes.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** Byte strings that stress the decoder: every kind of ill-formed sequence next to good ones. */
const CASES: number[][] = [
  [0x61, 0x62],
  [0x66, 0xff, 0x2e, 0x74],
  [0xc3, 0xa9], // é
  [0xc3], // a lead byte with nothing after it
  [0xc0, 0xaf], // an overlong '/'
  [0xe0, 0x80, 0xaf], // an overlong three-byte form
  [0xed, 0xa0, 0x80], // a UTF-16 surrogate written as UTF-8 (CESU)
  [0xf4, 0x90, 0x80, 0x80], // above U+10FFFF
  [0xf0, 0x9f, 0x98, 0x80], // an emoji
  [0xf4, 0x8f, 0xbc, 0x80], // U+10FF00 itself, a genuine character of the escape range
  [0xf4, 0x8f, 0xbf, 0xbf, 0x80, 0x41], // U+10FFFF, then a stray continuation byte
  [0xef, 0xbf, 0xbd], // a genuine U+FFFD
  [0x80, 0x81, 0xfe],
];

describe('file names as bytes', () => {
  it('gives back the exact bytes of every name', () => {
    for (const bytes of CASES) expect(hex(bytesOfName(nameFromBytes(Uint8Array.from(bytes))))).toBe(hex(Uint8Array.from(bytes)));
  });

  it('every byte string of up to two bytes has its own name, and comes back exactly', () => {
    const seen = new Set<string>();
    const wrong: string[] = [];
    const check = (bytes: Uint8Array) => {
      const name = nameFromBytes(bytes);
      seen.add(name);
      const back = bytesOfName(name);
      if (back.length !== bytes.length || back.some((x, i) => x !== bytes[i])) wrong.push(hex(bytes));
    };
    for (let a = 1; a < 256; a++) {
      check(Uint8Array.of(a));
      for (let b = 1; b < 256; b++) check(Uint8Array.of(a, b));
    }
    expect(wrong).toEqual([]);
    expect(seen.size).toBe(255 + 255 * 255);
  });

  it('leaves every valid UTF-8 name as its plain string, so recorded histories read as before', () => {
    for (const text of ['plain.txt', 'é/ü.md', 'emoji 😀', 'CJK 漢字', '\uFFFD']) {
      expect(nameFromBytes(Buffer.from(text, 'utf8'))).toBe(text);
      expect(hasRawBytes(text)).toBe(false);
      expect(displayPath(text)).toBe(text);
    }
  });

  it('shows bytes that are not UTF-8 as \\xNN, a backslash as \\\\, and reads that form back', () => {
    const name = nameFromBytes(Uint8Array.from([0x66, 0xff, 0x5c, 0x2e, 0x74]));
    expect(hasRawBytes(name)).toBe(true);
    expect(displayPath(name)).toBe('f\\xFF\\\\.t');
    expect(parseDisplayPath(displayPath(name))).toBe(name);
    expect(parseDisplayPath('d\\xE9/a\\x41')).toBe(`${nameFromBytes(Uint8Array.from([0x64, 0xe9]))}/aA`);
    expect(parseDisplayPath('a\\b')).toBe('a\\b');
    expect(lossyPath(name)).toBe('f\uFFFD\\.t');
  });

  it('shows control characters (C0, DEL, C1) and bidi controls as the \\xNN of their bytes, and reads such a path back', () => {
    expect(visibleText('a\x1b[31mb\r\b\t\x7f\u0085\u202e\u2066z')).toBe('a\\x1B[31mb\\x0D\\x08\\x09\\x7F\\xC2\\x85\\xE2\\x80\\xAE\\xE2\\x81\\xA6z');
    expect(visibleText('plain é 日本')).toBe('plain é 日本');
    expect(visibleLines('one\x1b\ntwo')).toBe('one\\x1B\ntwo');
    for (const name of ['red\x1b[31m.txt', 'a\rb', 'x\u0085y', 'rtl\u202etxt.exe', 'back\\slash\x1b']) {
      expect(parseDisplayPath(displayPath(name))).toBe(name);
    }
  });

  it('keeps a tab of a line of text as a tab, and every other control character as \\xNN', () => {
    expect(visibleLineText('\t\tstrbuf_addf(sb);')).toBe('\t\tstrbuf_addf(sb);');
    expect(visibleLineText('a\tb\x1b[2Jc\rd\be\x7f\u0085\u202ez\v\f')).toBe('a\tb\\x1B[2Jc\\x0Dd\\x08e\\x7F\\xC2\\x85\\xE2\\x80\\xAEz\\x0B\\x0C');
    // A path still shows its tab, so that it is typed back the same.
    expect(displayPath('a\tb')).toBe('a\\x09b');
  });
});
