import { describe, expect, it } from 'vitest';
import { requiredLiteral } from '../../../electron/history/search/regexLiteral.js';

// The text every match of a regex must contain: what the trigram index may narrow by. Wrong in
// the generous direction would lose hits, so each case says what a match may lack.

describe('requiredLiteral', () => {
  it.each([
    ['function load[A-Z]\\w+', 'function load'],
    ['plain', 'plain'],
    ['colou?r', 'colo'],
    ['ab*cdef', 'cdef'],
    ['abc+de', 'abc'],
    ['x{0,3}yzw', 'yzw'],
    ['xy{2}zzz', 'zzz'],
    ['a\\.b\\.c', 'a.b.c'],
    ['\\bword\\b', 'word'],
    ['(?:opt)?required', 'required'],
    ['pre(fix|set)post', 'post'],
    ['[abc]+tail', 'tail'],
    ['^start.*end$', 'start'],
    ['a\\d{3}bcd', 'bcd'],
    ['lazy+?xyz', 'lazy'],
    ['a\\d{3}}bcd', '}bcd'],
  ])('%s needs %s', (source, literal) => {
    expect(requiredLiteral(source)).toBe(literal);
  });

  it.each(['a|b', 'one|two|three', 'loadUser|const'])('%s (an alternation) needs nothing', (source) => {
    expect(requiredLiteral(source)).toBeNull();
  });

  it('finds nothing where there is no plain text', () => {
    expect(requiredLiteral('\\d+\\s*')).toBeNull();
    expect(requiredLiteral('[a-z]+')).toBeNull();
  });

  it('every match of each pattern contains its literal', () => {
    const cases: [string, string[]][] = [
      ['colou?r', ['color', 'colour']],
      ['ab*cdef', ['acdef', 'abbbcdef']],
      ['abc+de', ['abcde', 'abcccde']],
      ['(?:opt)?required', ['required', 'optrequired']],
      ['lazy+?xyz', ['lazyxyz', 'lazyyyxyz']],
    ];
    for (const [source, texts] of cases) {
      const literal = requiredLiteral(source)!;
      for (const text of texts) {
        expect(new RegExp(source).test(text)).toBe(true);
        expect(text.includes(literal), `${source} on ${text}`).toBe(true);
      }
    }
  });
});
