import { describe, expect, it } from 'vitest';
import { compileQuery, PREVIEW_CHARS, previewOf, queryMatches } from '../../shared/textSearch.js';

// A search hit's preview carries the place of its own match, so the viewer marks exactly the range
// the search found: the second match of a line is marked where it is (not where the query first
// matches the preview), a match in a long line cut around it is marked inside the cut, and a match
// running past the line's end is marked to the end of the line shown.

const marked = (text: string, query: string) =>
  queryMatches(text, compileQuery({ query, regex: true, caseSensitive: true }), 100).map((m) => {
    const { preview, from, to } = previewOf(text, m);
    return preview.slice(from, to);
  });

describe('previewOf', () => {
  it('marks each match of a line at its own place', () => {
    const text = 'let a = 1, b = 22;\nc = 3\r\n';
    const matches = queryMatches(text, compileQuery({ query: '\\d+', regex: true, caseSensitive: true }), 100);
    expect(matches.map((m) => previewOf(text, m))).toEqual([
      { preview: 'let a = 1, b = 22;', from: 8, to: 9 },
      { preview: 'let a = 1, b = 22;', from: 15, to: 17 },
      { preview: 'c = 3', from: 4, to: 5 },
    ]);
  });

  it('marks a match of a cut line inside the cut, after its leading ellipsis', () => {
    const text = `${'x'.repeat(300)}needle${'y'.repeat(300)}`;
    const [match] = queryMatches(text, compileQuery({ query: 'needle', regex: true, caseSensitive: true }), 1);
    const { preview, from, to } = previewOf(text, match!);
    expect(preview.startsWith('…') && preview.endsWith('…')).toBe(true);
    expect(preview.length).toBe(PREVIEW_CHARS + 2);
    expect(preview.slice(from, to)).toBe('needle');
  });

  it('marks a match that runs past its line to the end of the line shown, and an empty one as empty', () => {
    expect(marked('ab\r\ncd', 'b\\s+c')).toEqual(['b']);
    expect(marked('ab\ncd', '$')).toEqual(['', '']);
  });
});
