import { isUtf8 } from 'node:buffer';
import { escapeRegex, type TextMatch, type TextQuery } from '../../../shared/textSearch.js';

// A plain query of printable ASCII found in a blob's bytes, without decoding the blob to a string:
// only the lines that hold a match are decoded, for their previews and columns. Exact because an
// ASCII byte in UTF-8 is always that character (no byte of a longer sequence is below 0x80), and
// because JavaScript's case-insensitive RegExp without the `u` flag folds no character above
// U+007F to one below it: the matches of an ASCII literal in the text are its matches in the
// bytes, at the same characters. Whether the bytes are text is the viewer's test
// (../textContents.ts: no NUL, valid UTF-8), asked without decoding; a leading byte order mark is
// left out of the first line, as the decoder leaves it out of the text.

export interface ByteLiteral {
  needle: Buffer;
  /** For a query that ignores case and has letters: the RegExp run over the bytes as Latin-1. */
  folded: RegExp | null;
}

/** A match, with its line's text: `match.offset` and `column` count within that line. */
export interface LineMatch {
  match: TextMatch;
  lineText: string;
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const NEWLINE = 0x0a;

/** The query as bytes to look for, or null when it is not plain printable ASCII (a regex, a line break, other characters). */
export function byteLiteralOf(query: TextQuery): ByteLiteral | null {
  if (query.regex || !/^[\t\x20-\x7e]+$/.test(query.query)) return null;
  const folded = !query.caseSensitive && /[a-z]/i.test(query.query) ? new RegExp(escapeRegex(query.query), 'gi') : null;
  return { needle: Buffer.from(query.query, 'latin1'), folded };
}

/** Up to `max` matches of the literal in the bytes, in order; null when the bytes are not text (a NUL, or not UTF-8). */
export function byteMatches(bytes: Buffer, literal: ByteLiteral, max: number): LineMatch[] | null {
  if (bytes.includes(0) || !isUtf8(bytes)) return null;
  const offsets = matchOffsets(bytes, literal, max);
  const out: LineMatch[] = [];
  const first = bytes.subarray(0, 3).equals(BOM) ? 3 : 0;
  let line = 1;
  let lineStart = first;
  let nextBreak = bytes.indexOf(NEWLINE, first);
  let lineText: string | undefined;
  for (const at of offsets) {
    while (nextBreak !== -1 && nextBreak < at) {
      line++;
      lineStart = nextBreak + 1;
      nextBreak = bytes.indexOf(NEWLINE, lineStart);
      lineText = undefined;
    }
    lineText ??= bytes.toString('utf8', lineStart, nextBreak === -1 ? bytes.length : nextBreak);
    // Columns count UTF-16 code units, as in the decoded text.
    const offset = at === lineStart ? 0 : bytes.toString('utf8', lineStart, at).length;
    out.push({ match: { line, column: offset + 1, length: literal.needle.length, offset }, lineText });
  }
  return out;
}

/** The byte offsets of up to `max` matches, each looked for after the one before (they never overlap). */
function matchOffsets(bytes: Buffer, literal: ByteLiteral, max: number): number[] {
  const offsets: number[] = [];
  const { needle, folded } = literal;
  if (folded) {
    const text = bytes.toString('latin1');
    folded.lastIndex = 0;
    let m: RegExpExecArray | null;
    while (offsets.length < max && (m = folded.exec(text)) !== null) offsets.push(m.index);
    return offsets;
  }
  for (let at = bytes.indexOf(needle); at !== -1 && offsets.length < max; at = bytes.indexOf(needle, at + needle.length)) offsets.push(at);
  return offsets;
}
