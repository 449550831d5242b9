import { describe, expect, it, vi } from 'vitest';
import { compileProgram } from '../../shared/regex/linearMatcher.js';
import { parseRegex } from '../../shared/regex/regexSyntax.js';
import { compileQuery, findMatches, matchAt, queryMatches, queryPattern } from '../../shared/textSearch.js';

// A search's regex runs on the linear-time automaton (shared/regex/): a catastrophic pattern over
// a long text finishes (counted by the matches it answers, never timed), what no automaton runs is
// refused with a reason, every match is the one JavaScript's own engine finds, case ignored or
// not, and the viewer's highlight of a match (matchAt, the preview's) uses the same automaton.

const regex = (query: string, caseSensitive = false) => compileQuery({ query, regex: true, caseSensitive });

describe('compileQuery', () => {
  it('finishes (a|aa)*b over 50 KB of a, and other patterns that backtrack without end', () => {
    const text = 'a'.repeat(50_000);
    for (const query of ['(a|aa)*b', '(a*)*b', '(a|a)*c', '^(\\w+\\s?)*$x', '(?:a+)+b']) {
      for (const caseSensitive of [true, false]) expect(queryMatches(text, regex(query, caseSensitive), 100), query).toEqual([]);
    }
    // Found where it is, too.
    expect(queryMatches(`${text}B`, regex('(a|aa)*b'), 100)).toEqual([{ line: 1, column: 1, length: 50_001, offset: 0 }]);
  });

  it('scans a long file with a pattern of many alternatives to its end', () => {
    const text = `${'a'.repeat(256 * 1024)}\nend`;
    expect(queryMatches(text, regex(`${'(a|aa)*'.repeat(10)}b|^end$`), 100)).toEqual([{ line: 2, column: 1, length: 3, offset: 256 * 1024 + 1 }]);
  });

  it('highlights a match where backtracking would first try an endless alternative', () => {
    const text = 'a'.repeat(2000);
    const query = { query: '(a|aa)*c|a', regex: true, caseSensitive: false };
    expect(queryMatches(text.slice(0, 160), compileQuery(query), 1)).toEqual([{ line: 1, column: 1, length: 1, offset: 0 }]);
    expect(matchAt(text, query, 1, 1)).toEqual({ from: 0, to: 1 });
    expect(matchAt(text, { ...query, query: '(a|aa)*c' }, 1, 1)).toBeNull();
  });

  it('refuses what cannot run in linear time, saying what it is', () => {
    const refused = (query: string) => {
      try {
        regex(query);
      } catch (error) {
        return error as { code: string; message: string };
      }
      throw new Error(`${query} was not refused`);
    };
    expect(refused('(a)\\1')).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/too costly.*simplify it.*backreferences/) });
    expect(refused('(?<x>a)\\k<x>').message).toMatch(/backreferences/);
    expect(refused('a(?=b)').message).toMatch(/lookarounds/);
    expect(refused('(?<!a)b').message).toMatch(/lookarounds/);
    expect(refused('((a|aa){0,1000}){0,1000}b').message).toMatch(/too costly.*counted repeats/);
    expect(refused('(unclosed').message).toMatch(/not valid/);
  });

  it('refuses a text a pattern would cost too many steps per character in, and nothing less', () => {
    const text = 'a'.repeat(50 * 1024);
    expect(() => queryMatches(text, regex('[ab]{0,2400}c'), 100)).toThrow(/too costly to search; simplify it \(it keeps too many ways to match open at once/);
    expect(queryMatches(text, regex('[ab]{0,100}c'), 100)).toEqual([]);
    expect(queryMatches(`${text}c`, regex('[ab]{0,100}c'), 100)).toEqual([{ line: 1, column: 51_101, length: 101, offset: 51_100 }]);
    expect(matchAt(text, { query: '[ab]{0,2400}a', regex: true, caseSensitive: true }, 1, 1)).toEqual({ from: 0, to: 2400 + 1 });
  });

  it('keeps one test per character class however often a counted repeat copies it', () => {
    for (const ignoreCase of [true, false]) {
      // `[ab]` a hundred times and `c`: two tests, each asked once per character by a step.
      expect(compileProgram(parseRegex('[ab]{0,100}c'), ignoreCase, '[ab]{0,100}c').tests).toHaveLength(2);
      expect(compileProgram(parseRegex('(a?){25}a{25}'), ignoreCase, '(a?){25}a{25}').tests).toHaveLength(2);
    }
  });

  it('looks for each line break once however many matches a long line has', () => {
    const text = `${'a'.repeat(100_000)}\nb\n${'a'.repeat(1000)}`;
    const indexOf = vi.spyOn(String.prototype, 'indexOf');
    try {
      const found = queryMatches(text, regex('a{10}'), Infinity);
      expect(found).toHaveLength(10_100);
      expect(found.at(-1)).toMatchObject({ line: 3, column: 991 });
      // Three breaks to find, and the look that finds none after the last.
      expect(indexOf.mock.calls.filter(([what]) => what === '\n').length).toBeLessThanOrEqual(3);
    } finally {
      indexOf.mockRestore();
    }
  });

  it('finds what JavaScript finds, with and without case', () => {
    const patterns = [
      'abc',
      'a[b-d]+e',
      '[^a-c]x',
      '[A-Z]\\w+',
      '\\bfoo\\b',
      '\\Boo',
      'ß|ẞ',
      'é+',
      'K',
      '\\u0041\\x62',
      '[\\w-]+@',
      'caf[eé]',
      '(?<name>ab)c',
      '[-a]',
      '[a-]',
      '[]x',
      '[^]',
      'i',
      'ſ',
      'µ',
      'Σ',
      '[\\b]',
      '\\k',
      '\\p{L}',
      'a{2}b{1,3}',
      '[\\u0041-\\u0043]',
      '\\/path',
      '.[aeiou]$',
      '^[^\\s]+',
      'a*',
      'a*?b',
      '(a|ab)(c|bcd)',
      'x*',
      '(?:a|b)+?',
      '\\d{2,}',
      'a{,2}',
      ']',
      '\\cJ',
      '[\\d-z]+',
      '^$',
      'o{1,2}?',
      '(a+|b+)*c',
      '\\s+\\S',
      '\\0',
      '[\\0-\\x20]+',
      '.+',
      '\\W+',
    ];
    const texts = [
      'ABC abc aBc',
      'aBCDe AbDE',
      'Ax dx cx CX',
      'Hello world',
      'FOO foo Foo food',
      'ß ẞ SS',
      'É é eé',
      'K k K',
      'Ab ab AB',
      'my-NAME@x',
      'CAFÉ café',
      'ABc abC',
      '-a A-',
      ']x x',
      'I ı İ i',
      'S s ſ',
      'µ Μ μ',
      'Σ σ ς',
      '\b',
      'k K',
      'p{l} P{L}',
      'aab aAbBB',
      'abc ABC',
      '/PATH /path',
      'qua\nqUA',
      'WORD w\nx y',
      'abcd abcbcd',
      'aaab bbc ababab',
      '12 345 6',
      'a{,2}',
      '\n\n x\r\ny',
      'b\u2028a',
      '\0 z-9',
    ];
    for (const query of patterns) {
      for (const caseSensitive of [true, false]) {
        const native = queryPattern({ query, regex: true, caseSensitive });
        const linear = regex(query, caseSensitive);
        for (const text of texts)
          expect(queryMatches(text, linear, 100), `${query} ${caseSensitive} on ${JSON.stringify(text)}`).toEqual(findMatches(text, native, 100));
      }
    }
  });
});
