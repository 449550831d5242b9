import { HindsightError } from '../../../shared/errors.js';
import { findMatches, findMatchesWith, queryPattern, type TextMatch, type TextQuery } from '../../../shared/textSearch.js';
import { compileProgram, LinearMatcher } from './linearMatcher.js';
import { parseRegex } from './regexSyntax.js';

// A search's pattern, in time linear in the text whatever the query. Plain text stays a
// JavaScript RegExp of the escaped text (a literal never backtracks). A regex runs on our own
// automaton (linearMatcher.ts), not JavaScript's backtracking engine, which never ends on
// `(a|aa)*b` over 50 KB of `a`s. We chose it over V8's experimental linear engine (the `l` flag)
// because that one keeps memory for every character it reads (about 300 bytes each, times the
// pattern's size: a 1 MiB file took gigabytes and ended the process) and cannot ignore case;
// and over a regex library because it keeps JavaScript's syntax and its leftmost match, which the
// viewer highlights with a RegExp (shared/textSearch.ts matchAt). What no automaton runs in linear
// time (backreferences, lookarounds) and programs grown too large by counted repeats are refused.

export type SearchPattern = { kind: 'text'; regex: RegExp } | { kind: 'linear'; matcher: LinearMatcher };

export function searchPattern(query: TextQuery): SearchPattern {
  let regex: RegExp;
  try {
    regex = queryPattern(query);
  } catch (error) {
    throw new HindsightError('BAD_REQUEST', `The regular expression is not valid: ${(error as Error).message}`, { query: query.query });
  }
  if (!query.regex) return { kind: 'text', regex };
  return { kind: 'linear', matcher: new LinearMatcher(compileProgram(parseRegex(query.query), !query.caseSensitive, query.query)) };
}

/** Up to `max` matches of the pattern in `text`, in order. */
export function searchMatches(text: string, pattern: SearchPattern, max: number): TextMatch[] {
  if (pattern.kind === 'text') return findMatches(text, pattern.regex, max);
  return findMatchesWith(text, (from) => pattern.matcher.find(text, from), max);
}
