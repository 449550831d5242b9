import { describe, expect, it } from 'vitest';
import { byteLiteralOf, byteMatches } from '../../../electron/history/search/byteLiteral.js';
import { MAX_MATCHES } from '../../../electron/history/search/blobScans.js';
import { textContents } from '../../../electron/history/textContents.js';
import { compileQuery, previewOf, queryMatches, type TextQuery } from '../../../shared/textSearch.js';
import { seededRandom } from '../../bench/fixtures/seededRandom.js';

// A plain ASCII query matched on a blob's bytes (search/byteLiteral.ts) against the way every other
// query is matched: the bytes decoded whole (textContents.ts, the viewer's test), the escaped
// RegExp over the text, each match's preview cut from the text. Generated texts with non-ASCII
// case pairs (é/É, ß, ſ, K as the Kelvin sign, İ), astral characters, CRLF and lone CR line
// ends, a byte order mark, long lines cut in previews, and queries in every case, with a fixed
// seed: line, column, length, preview and the marked range must be the same for every match.
// Bytes that are not UTF-8 or hold a NUL must be found not text, as the decoder finds them.

const SEED = 4177;
const CASES = 6_000;
const PIECES = ['static int', 'STATIC Int', 'xmalloc', 'XMalloc', 'todo', 'TODO', 'ToDo', 'a', 'A', 'aa', ' ', '\t', '(', 'x*y', '$1'];
const NON_ASCII = ['é', 'É', 'ß', 'ſ', '\u212a', 'İ', 'ı', '😀', '\u00a0', 'ǅ', 'Ω', '\ufeff'];
const ENDS = ['\n', '\r\n', '\r'];
const QUERIES = ['static int', 'xmalloc', 'todo', 'TODO', 'a', 'aa', 'x*y', '$1', 'int\tx', 'k', 's', 'i'];

function generated(random: () => number): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  let out = random() < 0.1 ? '\ufeff' : '';
  const parts = Math.floor(random() * 60);
  for (let p = 0; p < parts; p++) {
    const r = random();
    if (r < 0.45) out += pick(PIECES);
    else if (r < 0.7) out += pick(NON_ASCII);
    else if (r < 0.85) out += pick(ENDS);
    else if (r < 0.9) out += 'w'.repeat(Math.floor(random() * 200));
    else out += String.fromCharCode(0x21 + Math.floor(random() * 94));
  }
  return out;
}

/** The matches as the decoded-text path lists them: line, column, length, preview and marked range. */
function byText(bytes: Buffer, query: TextQuery) {
  const contents = textContents(bytes);
  if (contents.kind !== 'text') return null;
  return queryMatches(contents.text, compileQuery(query), MAX_MATCHES).map((m) => ({
    ...previewOf(contents.text, m),
    line: m.line,
    column: m.column,
    length: m.length,
  }));
}

function byBytes(bytes: Buffer, query: TextQuery) {
  const found = byteMatches(bytes, byteLiteralOf(query)!, MAX_MATCHES);
  return found && found.map(({ match, lineText }) => ({ ...previewOf(lineText, match), line: match.line, column: match.column, length: match.length }));
}

describe('a plain ASCII query matched on the bytes', () => {
  it('answers what the decoded text answers, on generated texts with and without case', () => {
    const random = seededRandom(SEED);
    let matched = 0;
    for (let k = 0; k < CASES; k++) {
      const bytes = Buffer.from(generated(random), 'utf8');
      const query: TextQuery = { query: QUERIES[k % QUERIES.length]!, regex: false, caseSensitive: random() < 0.3 };
      const expected = byText(bytes, query);
      expect(byBytes(bytes, query), `case ${k}: ${JSON.stringify(query)} in ${JSON.stringify(bytes.toString())}`).toEqual(expected);
      matched += expected?.length ?? 0;
    }
    // Not a test of empty answers: more matches than cases.
    expect(matched).toBeGreaterThan(CASES);
  });

  it('finds bytes not text exactly where the decoder does: a NUL, or not UTF-8', () => {
    const random = seededRandom(SEED + 1);
    const LEADS = [0x00, 0x7f, 0x80, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff, 0x61, 0x0a];
    let notText = 0;
    for (let k = 0; k < CASES; k++) {
      const length = Math.floor(random() * 12);
      const bytes = Buffer.from(
        Array.from({ length }, () => (random() < 0.5 ? LEADS[Math.floor(random() * LEADS.length)]! : 0x80 + Math.floor(random() * 64))),
      );
      const query: TextQuery = { query: 'a', regex: false, caseSensitive: false };
      const expected = byText(bytes, query);
      expect(byBytes(bytes, query) === null, `case ${k}: ${bytes.toString('hex')}`).toBe(expected === null);
      if (expected === null) notText++;
    }
    expect(notText).toBeGreaterThan(CASES / 4);
    expect(notText).toBeLessThan(CASES);
  });

  it('takes only plain printable ASCII: a regex, a line break or another character keeps the decoded path', () => {
    const plain = (query: string, more: Partial<TextQuery> = {}) => byteLiteralOf({ query, regex: false, caseSensitive: false, ...more });
    expect(plain('static int')).not.toBeNull();
    expect(plain('int\tx')).not.toBeNull();
    expect(plain('static', { regex: true })).toBeNull();
    expect(plain('a\nb')).toBeNull();
    expect(plain('café')).toBeNull();
    expect(plain('')).toBeNull();
    // Case kept, or no letter to fold: plain bytes; otherwise the folding RegExp over Latin-1.
    expect(plain('Todo', { caseSensitive: true })!.folded).toBeNull();
    expect(plain('1 + 2')!.folded).toBeNull();
    expect(plain('Todo')!.folded).not.toBeNull();
  });
});
