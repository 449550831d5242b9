import { compileQuery, findMatchesWith, queryMatches, queryPattern, type QueryMatcher, type TextMatch } from '../../../shared/textSearch.js';

// One (pattern, text, case) compared: the whole list of matches a search finds with the engine
// (shared/textSearch.ts `queryMatches`, as the history process and the viewer run it) against the
// list JavaScript's RegExp finds with the flags search compiles (`gm`, `gim`). A difference is
// shrunk to a smallest pattern and text that still differ, so a failure reads as a reproduction.

const MAX = 1000;

export interface Difference {
  pattern: string;
  text: string;
  caseSensitive: boolean;
  engine: TextMatch[] | string;
  regexp: TextMatch[];
}

/** The last pattern compiled both ways: the cases of one pattern come one after the other. */
let compiled: { key: string; engine: QueryMatcher | string; regexp: RegExp } | undefined;

function compiledFor(pattern: string, caseSensitive: boolean): NonNullable<typeof compiled> {
  const key = `${caseSensitive}:${pattern}`;
  if (compiled?.key !== key) {
    let engine: QueryMatcher | string;
    try {
      engine = compileQuery({ query: pattern, regex: true, caseSensitive });
    } catch (error) {
      engine = `refused: ${(error as Error).message}`;
    }
    compiled = { key, engine, regexp: queryPattern({ query: pattern, regex: true, caseSensitive }) };
  }
  return compiled;
}

/** The engine's matches, or the message it refused the pattern or text with. */
export function engineMatches(pattern: string, text: string, caseSensitive: boolean): TextMatch[] | string {
  const { engine } = compiledFor(pattern, caseSensitive);
  if (typeof engine === 'string') return engine;
  try {
    return queryMatches(text, engine, MAX);
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  }
}

/** RegExp's matches, stepped through as `findMatches` does (one RegExp per pattern, not per text). */
export function regexpMatches(pattern: string, text: string, caseSensitive: boolean): TextMatch[] {
  const { regexp } = compiledFor(pattern, caseSensitive);
  return findMatchesWith(
    text,
    (from) => {
      regexp.lastIndex = from;
      const m = regexp.exec(text);
      return m && { index: m.index, end: m.index + m[0].length };
    },
    MAX,
  );
}

/** The difference for this case, or null when both find the same matches. */
export function differenceOf(pattern: string, text: string, caseSensitive: boolean): Difference | null {
  const engine = engineMatches(pattern, text, caseSensitive);
  const regexp = regexpMatches(pattern, text, caseSensitive);
  return sameMatches(engine, regexp) ? null : { pattern, text, caseSensitive, engine, regexp };
}

function sameMatches(a: TextMatch[] | string, b: TextMatch[]): boolean {
  if (typeof a === 'string' || a.length !== b.length) return false;
  return a.every((m, k) => m.offset === b[k]!.offset && m.length === b[k]!.length && m.line === b[k]!.line && m.column === b[k]!.column);
}

const compiles = (pattern: string) => {
  try {
    new RegExp(pattern, 'm');
    return true;
  } catch {
    return false;
  }
};

/**
 * Whether the pattern holds what the engine refuses by design (a lookaround, or a backreference:
 * `\k<`, or `\N` with N at most its groups), so a smaller pattern that does is a different
 * failure, not the same one made smaller. Approximate (a `(` or `\` inside a class is not told
 * apart): it only steers the shrinking.
 */
function refusedByDesign(pattern: string): boolean {
  if (/\(\?<?[=!]|\\k</.test(pattern)) return true;
  const groups = (pattern.match(/\((?!\?)|\(\?<(?![=!])/g) ?? []).length;
  return [...pattern.matchAll(/\\+([1-9]\d*)/g)].some((m) => (m[0].length - m[1]!.length) % 2 === 1 && Number(m[1]) <= groups);
}

/** The difference made smaller: pieces of the pattern, then of the text, dropped while it still differs. */
export function shrunk(found: Difference): Difference {
  let best = found;
  for (let changed = true; changed;) {
    changed = false;
    for (const pattern of smaller(best.pattern)) {
      const d = compiles(pattern) && !refusedByDesign(pattern) ? differenceOf(pattern, best.text, best.caseSensitive) : null;
      if (d) {
        best = d;
        changed = true;
        break;
      }
    }
    if (changed) continue;
    for (const text of smaller(best.text)) {
      const d = differenceOf(best.pattern, text, best.caseSensitive);
      if (d) {
        best = d;
        changed = true;
        break;
      }
    }
  }
  return best;
}

/** Every string made of `s` less one slice, longest slices first. */
function* smaller(s: string): Generator<string> {
  for (let length = s.length; length >= 1; length--) for (let at = 0; at + length <= s.length; at++) yield s.slice(0, at) + s.slice(at + length);
}

/** A difference as a line to paste into a test. */
export function describe(d: Difference): string {
  return `pattern ${JSON.stringify(d.pattern)} over ${JSON.stringify(d.text)} (${d.caseSensitive ? 'gm' : 'gim'}): engine ${JSON.stringify(d.engine)}, RegExp ${JSON.stringify(d.regexp)}`;
}
