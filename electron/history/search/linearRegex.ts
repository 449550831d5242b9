import { setFlagsFromString } from 'node:v8';
import { HindsightError } from '../../../shared/errors.js';
import { findMatches, queryPattern, type TextMatch, type TextQuery } from '../../../shared/textSearch.js';
import { count } from '../trace.js';
import { foldCase } from './caseFold.js';

// A search's pattern with a linear-time guarantee. JavaScript's own engine backtracks: `(a|aa)*b`
// over 50 KB of `a`s never ends. V8 has a second, linear-time engine (an automaton, no
// backtracking) for the patterns it can run: no backreferences, no lookarounds, no large counted
// repeats, no `i` flag (case is folded into the pattern instead, caseFold.ts). We chose it over a
// regex library: no dependency, JavaScript's syntax and leftmost match exactly as the viewer's
// highlight (shared/textSearch.ts) reads them. A pattern is refused unless that engine can run it.
// It is much slower than the backtracking engine on ordinary patterns (5 s against 3 ms over
// 10 MB), so the search runs the usual engine with V8's fallback: after a bounded number of
// backtracks, V8 runs the same match again in the linear engine. A text whose match overflows the
// backtracking engine's stack first is scanned by the linear engine directly.
//
// The flags are the whole process's; the search sets them in its own worker thread
// (searchWorker.ts) before compiling any pattern, and they change no answer anywhere else.
setFlagsFromString('--enable-experimental-regexp-engine');
setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
setFlagsFromString(`--regexp-backtracks-before-fallback=${50_000}`);

export interface SearchPattern {
  /** The usual engine, which hands a match over to the linear one after too many backtracks. */
  usual: RegExp;
  /** The linear engine itself. */
  linear: RegExp;
}

export function searchPattern(query: TextQuery): SearchPattern {
  let usual: RegExp;
  try {
    usual = queryPattern(query);
  } catch (error) {
    throw new HindsightError('BAD_REQUEST', `The regular expression is not valid: ${(error as Error).message}`, { query: query.query });
  }
  const source = query.caseSensitive ? usual.source : foldCase(usual.source);
  try {
    const linear = new RegExp(source, 'gml');
    // Plain text stays on the usual engine as it was: a literal never backtracks.
    return { usual: query.regex ? new RegExp(source, 'gm') : usual, linear };
  } catch {
    throw new HindsightError('BAD_REQUEST', `This pattern is too costly to search; simplify it (${costlyPart(query.query)}).`, { query: query.query });
  }
}

/** What in a valid pattern keeps it from running in linear time, in the words a person reads. */
function costlyPart(source: string): string {
  if (/\(\?<?[=!]/.test(source)) return 'lookarounds are not supported';
  if (/\\[1-9]|\\k</.test(source)) return 'backreferences are not supported';
  return 'large counted repeats such as {0,1000} cannot be searched in linear time';
}

/** Up to `max` matches of the pattern in `text`, in time linear in the text's length. */
export function searchMatches(text: string, pattern: SearchPattern, max: number): TextMatch[] {
  try {
    return findMatches(text, pattern.usual, max);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    count('search.linearScans');
    return findMatches(text, pattern.linear, max);
  }
}
