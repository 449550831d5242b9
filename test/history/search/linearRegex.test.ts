import { describe, expect, it } from 'vitest';
import { foldCase } from '../../../electron/history/search/caseFold.js';
import { searchMatches, searchPattern } from '../../../electron/history/search/linearRegex.js';
import { counter } from '../../../electron/history/trace.js';
import { findMatches, queryPattern } from '../../../shared/textSearch.js';

// The search's patterns run in linear time: a catastrophic pattern over a long text finishes
// (counted by the matches it answers, never timed), a pattern the linear engine cannot run is
// refused with a reason, and case folded into the pattern matches exactly what the `i` flag does.

describe('searchPattern', () => {
  it('finishes (a|aa)*b over 50 KB of a, and other patterns that backtrack without end', () => {
    const text = 'a'.repeat(50_000);
    for (const query of ['(a|aa)*b', '(a*)*b', '(a|a)*c', '^(\\w+\\s?)*$x']) {
      for (const caseSensitive of [true, false]) {
        expect(searchMatches(text, searchPattern({ query, regex: true, caseSensitive }), 100), query).toEqual([]);
      }
    }
    // Found where it is, too.
    const found = searchMatches(`${text}B`, searchPattern({ query: '(a|aa)*b', regex: true, caseSensitive: false }), 100);
    expect(found).toEqual([{ line: 1, column: 1, length: 50_001, offset: 0 }]);
  });

  it('scans a text deep enough to overflow the backtracking engine with the linear one', () => {
    const text = 'a'.repeat(6_000_000);
    const linearScans = counter('search.linearScans');
    expect(searchMatches(text, searchPattern({ query: '(a|aa)*b', regex: true, caseSensitive: true }), 100)).toEqual([]);
    expect(counter('search.linearScans') - linearScans).toBe(1);
  });

  it('refuses what cannot run in linear time, saying what it is', () => {
    const refused = (query: string) => {
      try {
        searchPattern({ query, regex: true, caseSensitive: false });
      } catch (error) {
        return error as { code: string; message: string };
      }
      throw new Error(`${query} was not refused`);
    };
    expect(refused('(a)\\1')).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/too costly.*simplify it.*backreferences/) });
    expect(refused('(?<x>a)\\k<x>').message).toMatch(/backreferences/);
    expect(refused('a(?=b)').message).toMatch(/lookarounds/);
    expect(refused('(?<!a)b').message).toMatch(/lookarounds/);
    expect(refused('(a|aa){0,3000}b').message).toMatch(/too costly.*counted repeats/);
    expect(refused('(unclosed').message).toMatch(/not valid/);
  });

  it('matches what the i flag matches, by folding case into the pattern', () => {
    const patterns = [
      'abc', 'a[b-d]+e', '[^a-c]x', '[A-Z]\\w+', '\\bfoo\\b', 'ß|ẞ', 'é+', 'K', '\\u0041\\x62', '[\\w-]+@', 'caf[eé]',
      '(?<name>ab)c', '[-a]', '[a-]', '[]x', '[^]', 'i', 'ſ', 'µ', 'Σ', '[\\b]', '\\k', '\\p{L}', 'a{2}b{1,3}', '[\\u0041-\\u0043]',
      '\\/path', '.[aeiou]$', '^[^\\s]+',
    ];
    const texts = [
      'ABC abc aBc', 'aBCDe AbDE', 'Ax dx cx CX', 'Hello world', 'FOO foo Foo food', 'ß ẞ SS', 'É é eé', 'K k K', 'Ab ab AB',
      'my-NAME@x', 'CAFÉ café', 'ABc abC', '-a A-', ']x x', 'I ı İ i', 'S s ſ', 'µ Μ μ', 'Σ σ ς', '\b', 'k K', 'p{l} P{L}',
      'aab aAbBB', 'abc ABC', '/PATH /path', 'qua\nqUA', 'WORD w\nx y',
    ];
    for (const query of patterns) {
      const folded = new RegExp(foldCase(query), 'gm');
      const native = queryPattern({ query, regex: true, caseSensitive: false });
      for (const text of texts) expect(findMatches(text, folded, 100), `${query} on ${JSON.stringify(text)}`).toEqual(findMatches(text, native, 100));
    }
  });
});
