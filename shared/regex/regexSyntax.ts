import { HindsightError } from '../errors.js';

// A JavaScript regular expression (no `u` flag, the syntax browsers accept) read into a tree for
// the linear-time matcher (linearMatcher.ts). The pattern has already compiled as a RegExp, so
// only what that matcher cannot run is refused here: backreferences and lookarounds, which no
// automaton runs in linear time. Characters are UTF-16 code units, as RegExp without `u` sees them.

export type CharTest = (unit: number) => boolean;

export type Node =
  | { kind: 'empty' }
  /** `negated`: a class `[^...]`, whose members are tested (and case folded) before the answer is turned over. */
  | { kind: 'char'; test: CharTest; negated?: boolean; unit?: number }
  | { kind: 'assert'; what: '^' | '$' | 'b' | 'B' }
  | { kind: 'concat'; items: Node[] }
  | { kind: 'alt'; options: Node[] }
  | { kind: 'repeat'; body: Node; min: number; max: number; greedy: boolean }
  /** Up to `max` optional iterations of a body that always consumes a character (emptyIterations.ts makes them). */
  | { kind: 'loop'; body: Node; max: number; greedy: boolean };

/** Why a pattern whose automaton would be too large is refused. */
export const TOO_LARGE = 'large counted repeats such as {0,1000}, or repeated groups that can match nothing in many ways, cannot be searched in linear time';

export function unsupported(what: string, query: string): HindsightError {
  return new HindsightError('BAD_REQUEST', `This pattern is too costly to search; simplify it (${what}).`, { query });
}

const LINE_TERMINATORS = [10, 13, 0x2028, 0x2029];
const isDigit: CharTest = (c) => c >= 48 && c <= 57;
const isWord: CharTest = (c) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || isDigit(c) || c === 95;
const SPACES = new Set([9, 10, 11, 12, 13, 32, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff]);
const isSpace: CharTest = (c) => SPACES.has(c) || (c >= 0x2000 && c <= 0x200a);
export const isWordUnit = isWord;
const CLASS_ESCAPES: Record<string, CharTest> = {
  d: isDigit,
  D: (c) => !isDigit(c),
  w: isWord,
  W: (c) => !isWord(c),
  s: isSpace,
  S: (c) => !isSpace(c),
};
const CONTROL: Record<string, number> = { n: 10, r: 13, t: 9, f: 12, v: 11 };

export function parseRegex(source: string): Node {
  const namedGroups = /\(\?<[^=!]/.test(source);
  const groups = capturingGroups(source);
  let i = 0;

  const alternation = (): Node => {
    const options = [sequence()];
    while (source[i] === '|') {
      i++;
      options.push(sequence());
    }
    return options.length === 1 ? options[0]! : { kind: 'alt', options };
  };

  const sequence = (): Node => {
    const items: Node[] = [];
    while (i < source.length && source[i] !== '|' && source[i] !== ')') {
      const atom = atomAt();
      items.push(quantified(atom));
    }
    return items.length === 1 ? items[0]! : items.length === 0 ? { kind: 'empty' } : { kind: 'concat', items };
  };

  const quantified = (atom: Node): Node => {
    let min: number;
    let max: number;
    const c = source[i];
    if (c === '*' || c === '+' || c === '?') {
      [min, max] = c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
      i++;
    } else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
      if (!m) return atom;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      i += m[0].length;
    } else return atom;
    const greedy = source[i] !== '?';
    if (!greedy) i++;
    return { kind: 'repeat', body: atom, min, max, greedy };
  };

  const atomAt = (): Node => {
    const c = source[i]!;
    if (c === '(') {
      if (source.startsWith('(?=', i) || source.startsWith('(?!', i) || source.startsWith('(?<=', i) || source.startsWith('(?<!', i)) {
        throw unsupported('lookarounds are not supported', source);
      }
      if (source.startsWith('(?:', i)) i += 3;
      else if (source.startsWith('(?<', i)) i = source.indexOf('>', i) + 1;
      else i++;
      const inner = alternation();
      i++; // ')'
      return inner;
    }
    i++;
    if (c === '^' || c === '$') return { kind: 'assert', what: c };
    if (c === '.') return { kind: 'char', test: (u) => !LINE_TERMINATORS.includes(u) };
    if (c === '[') return classAt();
    if (c === '\\') {
      const next = source[i];
      if (next === 'b' || next === 'B') {
        i++;
        return { kind: 'assert', what: next };
      }
      const escape = escapeAt(false);
      return typeof escape === 'number' ? { kind: 'char', test: (u) => u === escape, unit: escape } : { kind: 'char', test: escape };
    }
    const unit = c.charCodeAt(0);
    return { kind: 'char', test: (u) => u === unit, unit };
  };

  /** After a backslash: a unit, or a class escape's test. */
  const escapeAt = (inClass: boolean): number | CharTest => {
    const next = source[i]!;
    i++;
    if (next in CLASS_ESCAPES) return CLASS_ESCAPES[next]!;
    if (next in CONTROL) return CONTROL[next]!;
    if (inClass && next === 'b') return 8;
    if (next === '0' && !isDigit(source.charCodeAt(i))) return 0;
    if (/[1-9]/.test(next) && !inClass) {
      // Annex B: `\N` refers to a group only when the pattern has N groups; otherwise it is an
      // octal escape (`\101` is `A`), or the digit itself for 8 and 9.
      if (Number(/^\d+/.exec(source.slice(i - 1))![0]) <= groups) throw unsupported('backreferences are not supported', source);
      if (next === '8' || next === '9') return next.charCodeAt(0);
    }
    if (/[0-7]/.test(next)) {
      // A legacy octal escape (in a class, or \0 followed by digits).
      const m = /^[0-7]{0,2}/.exec(source.slice(i))![0];
      const value = parseInt(next + m, 8);
      const digits = value > 0o377 ? m.slice(0, -1) : m;
      i += digits.length;
      return parseInt(next + digits, 8);
    }
    if (next === 'k' && namedGroups) throw unsupported('backreferences are not supported', source);
    const hex = next === 'x' ? /^[0-9a-fA-F]{2}/.exec(source.slice(i)) : next === 'u' ? /^[0-9a-fA-F]{4}/.exec(source.slice(i)) : null;
    if (hex) {
      i += hex[0].length;
      return parseInt(hex[0], 16);
    }
    if (next === 'c') {
      const letter = source[i];
      // Annex B: inside a class a digit or `_` is a control letter too (`[\c1]` is U+0011).
      if (letter !== undefined && (inClass ? /[A-Za-z0-9_]/ : /[A-Za-z]/).test(letter)) {
        i++;
        return letter.charCodeAt(0) % 32;
      }
      // `\c` not followed by a letter is a backslash and a `c`.
      i--;
      return 92;
    }
    return next.charCodeAt(0);
  };

  const classAt = (): Node => {
    const negated = source[i] === '^';
    if (negated) i++;
    const tests: CharTest[] = [];
    const ranges: [number, number][] = [];
    while (i < source.length && source[i] !== ']') {
      const from = classAtom();
      if (source[i] === '-' && source[i + 1] !== ']' && i + 1 < source.length && typeof from === 'number') {
        const save = i;
        i++;
        const to = classAtom();
        if (typeof to === 'number') {
          ranges.push([from, to]);
          continue;
        }
        // `[a-\d]` (Annex B): a, a dash and \d.
        i = save + 1;
        ranges.push([from, from], [45, 45]);
        tests.push(to);
        continue;
      }
      if (typeof from === 'number') ranges.push([from, from]);
      else tests.push(from);
    }
    i++; // ']'
    const member: CharTest = (u) => ranges.some(([a, b]) => u >= a && u <= b) || tests.some((t) => t(u));
    return { kind: 'char', test: member, negated };
  };

  const classAtom = (): number | CharTest => {
    const c = source[i]!;
    i++;
    return c === '\\' ? escapeAt(true) : c.charCodeAt(0);
  };

  return alternation();
}

/** How many capturing groups the pattern has (what a `\N` is compared with; forward ones count). */
function capturingGroups(source: string): number {
  let count = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(' && (source[i + 1] !== '?' || (source[i + 2] === '<' && source[i + 3] !== '=' && source[i + 3] !== '!'))) count++;
  }
  return count;
}
