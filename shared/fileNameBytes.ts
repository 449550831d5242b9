import { appendAll } from './largeArrays.js';

// File names as the bytes the file system has. A name on Linux is any bytes but '/' and NUL; not
// all of them are valid UTF-8. A project path is held (in memory, in history.db, in the contract)
// as a string in which each byte of an invalid UTF-8 sequence is the code point U+10FF00 + byte,
// and a genuine character of that private-use range U+10FF00..U+10FFFF is written as its four
// UTF-8 bytes, each escaped the same way. So decoding gives back the exact bytes, no two byte
// names share a string, and every valid UTF-8 name outside that tiny range is its plain string:
// histories recorded before need no change. SQLite keeps these code points unchanged (they are
// valid UTF-8), unlike lone surrogates. People see such bytes as `\xNN` (displayPath).

const RAW_BASE = 0x10ff00;
// In UTF-16 the range U+10FF00..U+10FFFF is the high surrogate DBFF with a low one DF00..DFFF.
const RAW_PAIR = /\uDBFF[\uDF00-\uDFFF]/;
const RAW_PAIRS = /\uDBFF[\uDF00-\uDFFF]/g;

/** Whether a name or path holds bytes that are not UTF-8 (escaped code points): the rare case. */
export function hasRawBytes(name: string): boolean {
  return name.includes('\uDBFF') && RAW_PAIR.test(name);
}

/** The string of a name (or path) from the bytes the file system gave. */
export function nameFromBytes(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const length = sequenceLength(bytes, i);
    if (length === 0) {
      out += String.fromCodePoint(RAW_BASE + bytes[i]!);
      i += 1;
      continue;
    }
    const cp = codePointAt(bytes, i, length);
    if (cp >= RAW_BASE) {
      // A genuine character of the escape range: its bytes, escaped, so it cannot pass for them.
      for (let k = 0; k < length; k++) out += String.fromCodePoint(RAW_BASE + bytes[i + k]!);
    } else {
      out += String.fromCodePoint(cp);
    }
    i += length;
  }
  return out;
}

/** The exact bytes of a name (or path) held as nameFromBytes made it. */
export function bytesOfName(name: string): Uint8Array {
  const out: number[] = [];
  for (const char of name) {
    const cp = char.codePointAt(0)!;
    if (cp >= RAW_BASE) out.push(cp - RAW_BASE);
    else if (cp < 0x80) out.push(cp);
    else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
    else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
    else out.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
  }
  return Uint8Array.from(out);
}

/**
 * A name or path as people read it: each byte that is not UTF-8, each control character and
 * each bidi control as `\xNN` (visibleText), and a backslash as `\\` so the two cannot be
 * confused. Unchanged for every other name. parseDisplayPath reverses it.
 */
export function displayPath(path: string): string {
  return visibleText(path.replace(/\\/g, '\\\\'));
}

/** Free text (a message naming paths) with each byte that is not UTF-8 as `\xNN`; nothing else changed. */
export function escapeRawBytes(text: string): string {
  if (!hasRawBytes(text)) return text;
  return text.replace(RAW_PAIRS, (pair) => `\\x${(pair.codePointAt(0)! - RAW_BASE).toString(16).padStart(2, '0').toUpperCase()}`);
}

/** C0 and DEL, C1, and the bidi marks, embeddings, overrides and isolates. */
function unsafe(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x61c ||
    code === 0x200e ||
    code === 0x200f ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

function hexBytes(char: string): string {
  return [...bytesOfName(char)].map((byte) => `\\x${byte.toString(16).padStart(2, '0').toUpperCase()}`).join('');
}

/**
 * Text that may come from a history not made here (a bundle, a remote: a label, a path, a
 * message naming them) as a terminal or a page may show it. A control character would act
 * instead of being seen (an escape sequence recolours, moves the cursor or retitles the window;
 * a carriage return or backspace hides what came before) and a bidi control reorders what is
 * shown: each is written as the `\xNN` of its UTF-8 bytes, the form bytes that are not UTF-8
 * take, so a path shown this way is typed back the same (parseDisplayPath). JSON output needs
 * none of this (it escapes), so it stays raw.
 */
export function visibleText(text: string): string {
  return shownWithout(text, unsafe);
}

/**
 * A line of a file's text (a line a search found) as a terminal may show it: as visibleText, but
 * a tab is part of the text and stays a tab; what would move the cursor back or to a new line,
 * recolour, retitle or reorder (ESC, CR, backspace, the other controls, bidi controls) is still
 * written as `\xNN`.
 */
export function visibleLineText(text: string): string {
  return shownWithout(text, (code) => code !== TAB && unsafe(code));
}

const TAB = 0x09;

/** The text with each character `escaped` names written as the `\xNN` of its bytes. */
function shownWithout(text: string, escaped: (code: number) => boolean): string {
  const shown = escapeRawBytes(text);
  let out = '';
  let from = 0;
  for (let i = 0; i < shown.length; i++) {
    if (!escaped(shown.charCodeAt(i))) continue;
    out += shown.slice(from, i) + hexBytes(shown[i]!);
    from = i + 1;
  }
  return from === 0 ? shown : out + shown.slice(from);
}

/** A message of several lines: each line made visible (visibleText), the line breaks kept. */
export function visibleLines(text: string): string {
  return text.split('\n').map(visibleText).join('\n');
}

/**
 * A path typed by a person (a CLI argument) in the form displayPath shows: `\xNN` is that byte and
 * `\\` a backslash; any other backslash is itself. The result is the stored form of the same bytes.
 */
export function parseDisplayPath(text: string): string {
  if (!text.includes('\\')) return text;
  const bytes: number[] = [];
  const literal = (part: string) => appendAll(bytes, bytesOfName(part));
  let i = 0;
  while (i < text.length) {
    const slash = text.indexOf('\\', i);
    if (slash < 0) {
      literal(text.slice(i));
      break;
    }
    literal(text.slice(i, slash));
    const hex = /^x([0-9a-fA-F]{2})/.exec(text.slice(slash + 1, slash + 4));
    if (hex) {
      bytes.push(parseInt(hex[1]!, 16));
      i = slash + 4;
    } else if (text[slash + 1] === '\\') {
      bytes.push(0x5c);
      i = slash + 2;
    } else {
      bytes.push(0x5c);
      i = slash + 1;
    }
  }
  return nameFromBytes(Uint8Array.from(bytes));
}

// The length of the valid UTF-8 sequence starting at i (the Unicode table of well-formed
// sequences: no overlong forms, no surrogates, nothing above U+10FFFF), or 0 when none starts there.
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i]!;
  if (b0 < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => i + k < bytes.length && bytes[i + k]! >= lo && bytes[i + k]! <= hi;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const lo = b0 === 0xe0 ? 0xa0 : 0x80;
    const hi = b0 === 0xed ? 0x9f : 0xbf;
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const lo = b0 === 0xf0 ? 0x90 : 0x80;
    const hi = b0 === 0xf4 ? 0x8f : 0xbf;
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

function codePointAt(bytes: Uint8Array, i: number, length: number): number {
  const b0 = bytes[i]!;
  if (length === 1) return b0;
  if (length === 2) return ((b0 & 0x1f) << 6) | (bytes[i + 1]! & 0x3f);
  if (length === 3) return ((b0 & 0x0f) << 12) | ((bytes[i + 1]! & 0x3f) << 6) | (bytes[i + 2]! & 0x3f);
  return ((b0 & 0x07) << 18) | ((bytes[i + 1]! & 0x3f) << 12) | ((bytes[i + 2]! & 0x3f) << 6) | (bytes[i + 3]! & 0x3f);
}

/**
 * A path as a UTF-8 decoder that replaces what it cannot read sees it (each byte that is not UTF-8
 * as U+FFFD): the form ignore rules match, as a .gitignore read as UTF-8 names such a file.
 */
export function lossyPath(path: string): string {
  return hasRawBytes(path) ? path.replace(RAW_PAIRS, '\uFFFD') : path;
}
