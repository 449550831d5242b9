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
  return new RegexReader(source).alternation();
}

/** Reads a pattern left to right: `i` is the next unit to read. */
class RegexReader {
  private i = 0;
  private readonly namedGroups: boolean;
  private readonly groups: number;

  constructor(private readonly source: string) {
    this.namedGroups = /\(\?<[^=!]/.test(source);
    this.groups = capturingGroups(source);
  }

  alternation(): Node {
    const options = [this.sequence()];
    while (this.source[this.i] === '|') {
      this.i++;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0]! : { kind: 'alt', options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.i < this.source.length && this.source[this.i] !== '|' && this.source[this.i] !== ')') {
      const atom = this.atomAt();
      items.push(this.quantified(atom));
    }
    return items.length === 1 ? items[0]! : items.length === 0 ? { kind: 'empty' } : { kind: 'concat', items };
  }

  private quantified(atom: Node): Node {
    let min: number;
    let max: number;
    const c = this.source[this.i];
    if (c === '*' || c === '+' || c === '?') {
      [min, max] = c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
      this.i++;
    } else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.i));
      if (!m) return atom;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      this.i += m[0].length;
    } else return atom;
    const greedy = this.source[this.i] !== '?';
    if (!greedy) this.i++;
    return { kind: 'repeat', body: atom, min, max, greedy };
  }

  private atomAt(): Node {
    const c = this.source[this.i]!;
    if (c === '(') {
      if (
        this.source.startsWith('(?=', this.i) ||
        this.source.startsWith('(?!', this.i) ||
        this.source.startsWith('(?<=', this.i) ||
        this.source.startsWith('(?<!', this.i)
      ) {
        throw unsupported('lookarounds are not supported', this.source);
      }
      if (this.source.startsWith('(?:', this.i)) this.i += 3;
      else if (this.source.startsWith('(?<', this.i)) this.i = this.source.indexOf('>', this.i) + 1;
      else this.i++;
      const inner = this.alternation();
      this.i++; // ')'
      return inner;
    }
    this.i++;
    if (c === '^' || c === '$') return { kind: 'assert', what: c };
    if (c === '.') return { kind: 'char', test: (u) => !LINE_TERMINATORS.includes(u) };
    if (c === '[') return this.classAt();
    if (c === '\\') {
      const next = this.source[this.i];
      if (next === 'b' || next === 'B') {
        this.i++;
        return { kind: 'assert', what: next };
      }
      const escape = this.escapeAt(false);
      return typeof escape === 'number' ? { kind: 'char', test: (u) => u === escape, unit: escape } : { kind: 'char', test: escape };
    }
    const unit = c.charCodeAt(0);
    return { kind: 'char', test: (u) => u === unit, unit };
  }

  /** After a backslash: a unit, or a class escape's test. */
  private escapeAt(inClass: boolean): number | CharTest {
    const next = this.source[this.i]!;
    this.i++;
    if (next in CLASS_ESCAPES) return CLASS_ESCAPES[next]!;
    if (next in CONTROL) return CONTROL[next]!;
    if (inClass && next === 'b') return 8;
    if (next === '0' && !isDigit(this.source.charCodeAt(this.i))) return 0;
    if (/[1-9]/.test(next) && !inClass) {
      // Annex B: `\N` refers to a group only when the pattern has N groups; otherwise it is an
      // octal escape (`\101` is `A`), or the digit itself for 8 and 9.
      if (Number(/^\d+/.exec(this.source.slice(this.i - 1))![0]) <= this.groups) throw unsupported('backreferences are not supported', this.source);
      if (next === '8' || next === '9') return next.charCodeAt(0);
    }
    if (/[0-7]/.test(next)) {
      // A legacy octal escape (in a class, or \0 followed by digits).
      const m = /^[0-7]{0,2}/.exec(this.source.slice(this.i))![0];
      const value = parseInt(next + m, 8);
      const digits = value > 0o377 ? m.slice(0, -1) : m;
      this.i += digits.length;
      return parseInt(next + digits, 8);
    }
    if (next === 'k' && this.namedGroups) throw unsupported('backreferences are not supported', this.source);
    const hex = next === 'x' ? /^[0-9a-fA-F]{2}/.exec(this.source.slice(this.i)) : next === 'u' ? /^[0-9a-fA-F]{4}/.exec(this.source.slice(this.i)) : null;
    if (hex) {
      this.i += hex[0].length;
      return parseInt(hex[0], 16);
    }
    if (next === 'c') {
      const letter = this.source[this.i];
      // Annex B: inside a class a digit or `_` is a control letter too (`[\c1]` is U+0011).
      if (letter !== undefined && (inClass ? /[A-Za-z0-9_]/ : /[A-Za-z]/).test(letter)) {
        this.i++;
        return letter.charCodeAt(0) % 32;
      }
      // `\c` not followed by a letter is a backslash and a `c`.
      this.i--;
      return 92;
    }
    return next.charCodeAt(0);
  }

  private classAt(): Node {
    const negated = this.source[this.i] === '^';
    if (negated) this.i++;
    const tests: CharTest[] = [];
    const ranges: [number, number][] = [];
    while (this.i < this.source.length && this.source[this.i] !== ']') {
      const from = this.classAtom();
      if (this.source[this.i] === '-' && this.source[this.i + 1] !== ']' && this.i + 1 < this.source.length && typeof from === 'number') {
        const save = this.i;
        this.i++;
        const to = this.classAtom();
        if (typeof to === 'number') {
          ranges.push([from, to]);
          continue;
        }
        // `[a-\d]` (Annex B): a, a dash and \d.
        this.i = save + 1;
        ranges.push([from, from], [45, 45]);
        tests.push(to);
        continue;
      }
      if (typeof from === 'number') ranges.push([from, from]);
      else tests.push(from);
    }
    this.i++; // ']'
    const member: CharTest = (u) => ranges.some(([a, b]) => u >= a && u <= b) || tests.some((t) => t(u));
    return { kind: 'char', test: member, negated };
  }

  private classAtom(): number | CharTest {
    const c = this.source[this.i]!;
    this.i++;
    return c === '\\' ? this.escapeAt(true) : c.charCodeAt(0);
  }
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
