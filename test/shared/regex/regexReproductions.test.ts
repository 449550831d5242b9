import { describe, expect, it } from 'vitest';
import { compileQuery, matchAt } from '../../../shared/textSearch.js';
import { engineMatches, regexpMatches } from './regexDifference.js';

// The differences between the search's regex engine and RegExp that a differential run found
// (issue 41), each as the case that showed it: the engine now answers RegExp's matches, and
// refuses only what no automaton runs in linear time, saying which it is.

/** [offset, length] of each match, the engine's, after checking they are RegExp's. */
function asRegExp(pattern: string, text: string, caseSensitive = true): [number, number][] {
  const engine = engineMatches(pattern, text, caseSensitive);
  expect(engine, `${pattern} over ${JSON.stringify(text)}`).toEqual(regexpMatches(pattern, text, caseSensitive));
  return (engine as { offset: number; length: number }[]).map((m) => [m.offset, m.length]);
}

describe('the regex engine answers as RegExp', () => {
  it('keeps a match that starts after text no match can start with is skipped ([-+]?\\b\\d+ over "x = + 12")', () => {
    expect(asRegExp('[-+]?\\b\\d+', 'x = + 12')).toEqual([[6, 2]]);
    expect(asRegExp('[-+]?\\b\\d+', 'x = + 12', false)).toEqual([[6, 2]]);
  });

  it('takes an optional group holding only ^ or $ as optional', () => {
    expect(asRegExp('(?:^)?a', 'ba')).toEqual([[1, 1]]);
    expect(asRegExp('a(?:$)?b', 'ab')).toEqual([[0, 2]]);
    expect(asRegExp('(?:^)*a', 'ba')).toEqual([[1, 1]]);
    expect(asRegExp('(?:$)+a', 'ba')).toEqual([]);
  });

  it("applies JavaScript's empty-iteration rule to ? and {m,n}", () => {
    expect(asRegExp('(?:|a)?', 'a')).toEqual([
      [0, 1],
      [1, 0],
    ]);
    expect(asRegExp('(.*?){1,}', 'ab')).toEqual([
      [0, 2],
      [2, 0],
    ]);
    expect(asRegExp('(?:a??){2,3}b', 'aab')).toEqual([[0, 3]]);
    expect(asRegExp('(?:|x|^)*?y', 'xxy')).toEqual([[0, 3]]);
  });

  it('reads \\c with a digit or _ inside a class as a control character, and outside one as \\c', () => {
    expect(asRegExp('[\\c1]', 'c1\u0011')).toEqual([[2, 1]]);
    expect(asRegExp('[\\c_]', '_\u001f')).toEqual([[1, 1]]);
    expect(asRegExp('\\c1', 'c1\\c1')).toEqual([[2, 3]]);
  });

  it('reads \\N as an octal escape or the digit when the pattern has fewer than N groups', () => {
    expect(asRegExp('\\101', 'zA')).toEqual([[1, 1]]);
    expect(asRegExp('(a)\\2', 'a\u0002')).toEqual([[0, 2]]);
    expect(asRegExp('\\8\\9', '89')).toEqual([[0, 2]]);
    expect(asRegExp('(x)\\10', 'x\u0008')).toEqual([[0, 2]]);
  });

  it('ends a line at \\r\\n, \\r and U+2028 as the m flag does', () => {
    expect(asRegExp('foo$', 'foo\r\nbar foo\rfoo\u2028')).toEqual([
      [0, 3],
      [9, 3],
      [13, 3],
    ]);
    expect(asRegExp('^bar', 'foo\r\nbar\rbar')).toEqual([
      [5, 3],
      [9, 3],
    ]);
  });

  it('highlights exactly what it finds (the viewer asks the same engine)', () => {
    expect(matchAt('x = + 12', { query: '[-+]?\\b\\d+', regex: true, caseSensitive: false }, 1, 7)).toEqual({ from: 6, to: 8 });
    expect(matchAt('a', { query: '(?:|a)?', regex: true, caseSensitive: true }, 1, 1)).toEqual({ from: 0, to: 1 });
  });
});

describe('the regex engine refuses what no automaton runs in linear time, saying which', () => {
  const refused = (query: string) => {
    try {
      compileQuery({ query, regex: true, caseSensitive: true });
    } catch (error) {
      return error as { code: string; message: string };
    }
    throw new Error(`${query} was not refused`);
  };

  it('backreferences, numbered (forward ones too) and named', () => {
    for (const query of ['(a)\\1', '\\1(a)', '(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\\10', '(?<x>a)\\k<x>'])
      expect(refused(query), query).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/too costly.*backreferences are not supported/) });
  });

  it('a repeated group that can match nothing in too many ways, as a large counted repeat', () => {
    expect(refused(`(?:${'a?'.repeat(200)})*x`).message).toMatch(/too costly.*repeated groups that can match nothing in many ways/);
    expect(refused('(a{0,1000}){0,1000}').message).toMatch(/too costly.*large counted repeats/);
    // A few such items are searched as RegExp does.
    expect(asRegExp(`(?:${'a?'.repeat(8)})*x`, 'aaaaaaaaaaaax')).toEqual([[0, 13]]);
  });

  it('lookaheads and lookbehinds', () => {
    for (const query of ['a(?=b)', 'a(?!b)', '(?<=a)b', '(?<!a)b'])
      expect(refused(query), query).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/too costly.*lookarounds are not supported/) });
  });
});
