import { expect, it } from 'vitest';
import { regexCases } from './regexCases.js';
import { describe as described, differenceOf, shrunk, type Difference } from './regexDifference.js';

// The search's regex engine against JavaScript's RegExp on 100,000 generated (pattern, text,
// case) cases, seeded: the whole list of matches search would report must be RegExp's. A
// difference fails the test with its shrunk reproduction (at most a few listed).

const SEED = 41;
const PATTERNS = 6250;
const TEXTS_EACH = 8;

it('finds exactly the matches RegExp finds on 100,000 generated cases (flags m and im)', () => {
  const differences: Difference[] = [];
  let compared = 0;
  for (const { pattern, texts } of regexCases(SEED, PATTERNS, TEXTS_EACH)) {
    for (const text of texts) {
      for (const caseSensitive of [true, false]) {
        compared++;
        const d = differenceOf(pattern, text, caseSensitive);
        if (d && differences.length < 5) differences.push(shrunk(d));
        else if (d) differences.push(d);
      }
    }
  }
  expect(compared).toBe(PATTERNS * TEXTS_EACH * 2);
  expect(differences.length, `${differences.length} differ; the first, shrunk:\n${differences.slice(0, 5).map(described).join('\n')}`).toBe(0);
});
