// A regular expression rewritten to ignore case without the `i` flag: every letter becomes the
// class of the letters it equals under `i`, and every class gains the other cases of its members.
// V8's linear-time engine (linearRegex.ts) cannot run the `i` flag; the rewritten source runs
// there and matches exactly what the source with `i` matches (JavaScript without `u`: two UTF-16
// code units are equal when their Canonicalize, toUpperCase kept to one unit and never mapping
// a non-ASCII letter to ASCII, is the same).

let sameCase: Map<number, number[]> | undefined;

/** Every code unit whose Canonicalize equals that of `unit`, itself included. */
function caseClass(unit: number): number[] {
  if (!sameCase) {
    sameCase = new Map();
    for (let u = 0; u <= 0xffff; u++) {
      const key = canonicalize(u);
      const members = sameCase.get(key);
      if (members) members.push(u);
      else sameCase.set(key, [u]);
    }
  }
  return sameCase.get(canonicalize(unit))!;
}

function canonicalize(unit: number): number {
  const upper = String.fromCharCode(unit).toUpperCase();
  if (upper.length !== 1) return unit;
  const code = upper.charCodeAt(0);
  return unit >= 128 && code < 128 ? unit : code;
}

const unitEscape = (unit: number): string => `\\u${unit.toString(16).padStart(4, '0')}`;

/** `unit` as an atom that matches it in any case: itself when it has no other case. */
function foldedAtom(unit: number, written: string): string {
  const others = caseClass(unit).filter((u) => u !== unit);
  return others.length === 0 ? written : `[${written}${others.map(unitEscape).join('')}]`;
}

/** The source of a regular expression (no `u` flag), rewritten to match as it does with `i`. */
export function foldCase(source: string): string {
  const namedGroups = /\(\?<[^=!]/.test(source);
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const escape = readEscape(source, i, namedGroups);
      out += escape.unit === null ? escape.text : foldedAtom(escape.unit, escape.text);
      i = escape.end;
    } else if (c === '[') {
      const folded = foldClass(source, i, namedGroups);
      out += folded.text;
      i = folded.end;
    } else if (c === '(' && source[i + 1] === '?' && source[i + 2] === '<' && source[i + 3] !== '=' && source[i + 3] !== '!') {
      // A group's name is not text to match.
      const close = source.indexOf('>', i);
      const end = close < 0 ? source.length - 1 : close;
      out += source.slice(i, end + 1);
      i = end;
    } else if (c === '{') {
      // A quantifier's digits stay as they are.
      const quantifier = /^\{\d+(,\d*)?\}/.exec(source.slice(i));
      out += quantifier ? quantifier[0] : c;
      if (quantifier) i += quantifier[0].length - 1;
    } else if ('^$.|?*+()}]'.includes(c)) out += c;
    else out += foldedAtom(c.charCodeAt(0), c);
  }
  return out;
}

interface Escape {
  /** The escape as written. */
  text: string;
  /** The one code unit it stands for, or null (a class such as \d, an assertion, a backreference). */
  unit: number | null;
  /** Index of its last character. */
  end: number;
}

const CONTROL_ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, f: 12, v: 11 };

function readEscape(source: string, at: number, namedGroups: boolean): Escape {
  const next = source[at + 1];
  if (next === undefined) return { text: '\\', unit: null, end: at };
  const tail = source.slice(at + 2);
  const hex = next === 'x' ? /^[0-9a-fA-F]{2}/.exec(tail) : next === 'u' ? /^[0-9a-fA-F]{4}/.exec(tail) : null;
  if (hex) return { text: `\\${next}${hex[0]}`, unit: parseInt(hex[0], 16), end: at + 1 + hex[0].length };
  if (next === 'c' && /^[A-Za-z]/.test(tail)) return { text: source.slice(at, at + 3), unit: null, end: at + 2 };
  if (next === 'k' && namedGroups) {
    const name = /^<[^>]*>/.exec(tail);
    const end = at + 1 + (name ? name[0].length : 0);
    return { text: source.slice(at, end + 1), unit: null, end };
  }
  if (next in CONTROL_ESCAPES) return { text: `\\${next}`, unit: CONTROL_ESCAPES[next]!, end: at + 1 };
  // Classes, assertions, backreferences and octal escapes have no case of their own.
  if (/[dDwWsSbB0-9]/.test(next)) return { text: `\\${next}`, unit: null, end: at + 1 };
  // Any other escaped character stands for itself (\., \\, and in this mode \k, \p, \q...).
  return { text: `\\${next}`, unit: next.charCodeAt(0), end: at + 1 };
}

/**
 * A class from its `[` at `open`, written again member by member (each unit as \uXXXX, so no dash
 * can start a range it did not start) with the other cases of its members added: a negated class
 * then leaves out every case of them, as with `i`.
 */
function foldClass(source: string, open: number, namedGroups: boolean): { text: string; end: number } {
  let i = open + 1;
  const negated = source[i] === '^';
  if (negated) i++;
  // Each member: a unit (raw: written as itself, so a raw '-' may make a range) or a class escape.
  const atoms: { unit: number | null; text: string; raw: boolean }[] = [];
  for (; i < source.length && source[i] !== ']'; i++) {
    if (source[i] === '\\') {
      const escape = readEscape(source, i, namedGroups);
      // Inside a class \b is a backspace.
      atoms.push({ unit: escape.text === '\\b' ? 8 : escape.unit, text: escape.text, raw: false });
      i = escape.end;
    } else atoms.push({ unit: source.charCodeAt(i), text: source[i]!, raw: true });
  }
  if (i >= source.length) return { text: source.slice(open), end: source.length - 1 };
  const covered = new Set<number>();
  const ranges: [number, number][] = [];
  let written = '';
  for (let k = 0; k < atoms.length; k++) {
    const atom = atoms[k]!;
    const dash = atoms[k + 1];
    const to = atoms[k + 2];
    if (atom.unit !== null && dash?.raw && dash.unit === 45 && to && to.unit !== null) {
      ranges.push([atom.unit, to.unit]);
      written += `${unitEscape(atom.unit)}-${unitEscape(to.unit)}`;
      k += 2;
    } else if (atom.unit !== null) {
      ranges.push([atom.unit, atom.unit]);
      written += unitEscape(atom.unit);
    } else written += atom.text;
  }
  for (const [from, to] of ranges) for (let u = from; u <= to; u++) covered.add(u);
  const added = new Set<number>();
  for (const unit of covered) for (const other of caseClass(unit)) if (!covered.has(other)) added.add(other);
  return { text: `[${negated ? '^' : ''}${written}${[...added].map(unitEscape).join('')}]`, end: i };
}
