import { seededRandom } from '../../bench/fixtures/seededRandom.js';

// Generated (pattern, text) cases for the differential tests of the search's regex engine against
// JavaScript's RegExp: every construct the engine accepts (classes and their escapes, Annex B's
// octal and control escapes, assertions, groups holding only assertions, empty alternatives,
// greedy and lazy counted repeats), and texts over the characters those constructs tell apart:
// \r\n, \r, U+2028, word and non-word characters, and case pairs JavaScript without `u` folds
// (é/É, k/K) or does not (ß/ẞ, ſ/s, the Kelvin sign K/k).

/** The characters texts are made of; "\r\n" stays one piece. */
export const TEXT_PIECES = [
  'a',
  'b',
  'c',
  'A',
  'B',
  '1',
  '2',
  ' ',
  '-',
  '+',
  '_',
  '.',
  'x',
  '\n',
  '\r',
  '\r\n',
  '\t',
  'é',
  'É',
  'ß',
  'ẞ',
  'K',
  'k',
  '\u212a',
  'ſ',
  's',
  'S',
  '\u2028',
  '\u0011',
];

const LITERALS = ['a', 'b', 'c', 'A', 'x', '1', '-', ' ', '_', 'é', 'É', 'ß', 'ẞ', 'K', 'k', '\u212a', 'ſ', 's', 'S', '{', '}', ']', ',', 'ab', 'ba'];
const ESCAPES = [
  '\\d',
  '\\D',
  '\\w',
  '\\W',
  '\\s',
  '\\S',
  '\\n',
  '\\r',
  '\\t',
  '\\x41',
  '\\u00e9',
  '\\u212A',
  '\\cJ',
  '\\cM',
  '\\0',
  '\\101',
  '\\8',
  '\\.',
  '\\-',
  '\\+',
  '\\k',
  '\\c',
  '\\/',
  '\\f',
  '\\v',
  '\\u{2}',
  '\\p{L}',
  '\\xZ',
  '\\uZZ',
  '\\_',
  '\\e',
  '\\B',
];
const CLASS_ITEMS = [
  'a',
  'b',
  'A',
  'é',
  'ß',
  'K',
  'k',
  's',
  '-',
  '_',
  ' ',
  'a-c',
  'A-Z',
  'à-ÿ',
  '0-9',
  '\\d',
  '\\w',
  '\\W',
  '\\s',
  '\\S',
  '\\b',
  '\\n',
  '\\r',
  '\\c1',
  '\\c_',
  '\\cj',
  '\\c-',
  '\\1',
  '\\101',
  '\\x2d',
  '\\u2028',
  '\\-',
  '\\]',
  '\\d-z',
  '\\f',
  '\\v',
  '\\0',
  '^',
  '[',
  '\\x',
  '\\uZ',
];
const ASSERTIONS = ['^', '$', '\\b', '\\B'];
const QUANTIFIERS = ['*', '+', '?', '{0}', '{1}', '{2}', '{0,1}', '{0,2}', '{1,3}', '{2,}', '{0,}', '{,2}'];

export interface RegexCase {
  pattern: string;
  texts: string[];
}

/** `count` patterns, each with `textsEach` texts, the same for the same seed. */
export function regexCases(seed: number, count: number, textsEach: number): RegexCase[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  let groups = 0;

  const alternation = (depth: number): string => {
    const options = [sequence(depth)];
    while (random() < 0.25) options.push(random() < 0.2 ? '' : sequence(depth));
    return options.join('|');
  };
  const sequence = (depth: number): string => {
    let out = '';
    const items = 1 + Math.floor(random() * 3);
    for (let k = 0; k < items; k++) out += piece(depth);
    return out;
  };
  const piece = (depth: number): string => {
    const roll = random();
    if (roll < 0.12) return pick(ASSERTIONS);
    const atom = atomOf(depth);
    return random() < 0.55 ? atom : atom + pick(QUANTIFIERS) + (random() < 0.3 ? '?' : '');
  };
  const atomOf = (depth: number): string => {
    const roll = random();
    if (roll < 0.3) return pick(LITERALS);
    if (roll < 0.45) return pick(ESCAPES);
    if (roll < 0.52) return '.';
    if (roll < 0.7) return classOf();
    if (depth >= 3) return pick(LITERALS);
    // A group holding only assertions: optional, it matches where they do not hold too.
    if (random() < 0.2) return `(?:${pick(ASSERTIONS)}${random() < 0.3 ? `|${pick(ASSERTIONS)}` : ''})`;
    // At most 7 capturing groups, so `\8` stays the digit and never refers to a group.
    const open = groups < 7 && random() < 0.4 ? (random() < 0.3 ? `(?<g${groups}>` : '(') : '(?:';
    if (open !== '(?:') groups++;
    return `${open}${alternation(depth + 1)})`;
  };
  const classOf = (): string => {
    if (random() < 0.04) return random() < 0.5 ? '[]' : '[^]';
    let out = random() < 0.3 ? '[^' : '[';
    const items = 1 + Math.floor(random() * 3);
    for (let k = 0; k < items; k++) out += pick(CLASS_ITEMS);
    return `${out}]`;
  };
  const text = (): string => {
    let out = '';
    const length = Math.floor(random() * 12);
    for (let k = 0; k < length; k++) out += pick(TEXT_PIECES);
    return out;
  };

  const cases: RegexCase[] = [];
  while (cases.length < count) {
    groups = 0;
    const pattern = alternation(0);
    if (!compiles(pattern)) continue;
    const texts: string[] = [];
    for (let k = 0; k < textsEach; k++) texts.push(text());
    cases.push({ pattern, texts });
  }
  return cases;
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'm');
    return true;
  } catch {
    return false;
  }
}
