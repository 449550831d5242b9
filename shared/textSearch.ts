import { HindsightError } from './errors.js';
import { compileProgram, LinearMatcher } from './regex/linearMatcher.js';
import { parseRegex } from './regex/regexSyntax.js';

// What a history search looks for in a text, the one definition the history process (to find
// matches) and the viewer (to highlight the match it opens) share: plain text is a substring,
// a regex is JavaScript's, case is ignored unless asked. Lines and columns count from 1; a column
// counts UTF-16 code units, as JavaScript strings and the viewer's editor do.
//
// Matching takes time linear in the text whatever the query (compileQuery): plain text is an
// escaped RegExp (a literal never backtracks); a regex runs on our own automaton (regex/), not
// JavaScript's backtracking engine, which never ends on `(a|aa)*b` over 50 KB of `a`s. It keeps
// JavaScript's syntax and leftmost match; backreferences and lookarounds, which no automaton runs
// in linear time, are refused. V8's own linear engine (the `l` flag) was not taken: it keeps
// memory for every character it reads (a 1 MiB file took gigabytes and ended the process) and
// cannot ignore case.

export interface TextQuery {
  query: string;
  regex: boolean;
  caseSensitive: boolean;
}

export interface TextMatch {
  line: number;
  column: number;
  /** The matched text's length (UTF-16 code units); 0 for an empty regex match. */
  length: number;
  /** Offset of the match in the whole text. */
  offset: number;
}

/** The query as a global regular expression; throws SyntaxError for a regex that does not compile. */
export function queryPattern(query: TextQuery): RegExp {
  const source = query.regex ? query.query : escapeRegex(query.query);
  return new RegExp(source, query.caseSensitive ? 'gm' : 'gim');
}

/** A query ready to match: plain text as an escaped RegExp, a regex on the linear-time automaton. */
export type QueryMatcher = { kind: 'text'; regex: RegExp } | { kind: 'linear'; matcher: LinearMatcher };

/**
 * The query ready to match; throws BAD_REQUEST for a regex that does not compile or that cannot
 * run in linear time (saying what to simplify). Matching throws it too for a text the regex would
 * cost too many steps per character in (regex/linearMatcher.ts STEPS_PER_UNIT).
 */
export function compileQuery(query: TextQuery): QueryMatcher {
  let regex: RegExp;
  try {
    regex = queryPattern(query);
  } catch (error) {
    throw new HindsightError('BAD_REQUEST', `The regular expression is not valid: ${(error as Error).message}`, { query: query.query });
  }
  if (!query.regex) return { kind: 'text', regex };
  return { kind: 'linear', matcher: new LinearMatcher(compileProgram(parseRegex(query.query), !query.caseSensitive, query.query)) };
}

/** Up to `max` matches of the query in `text`, in order. */
export function queryMatches(text: string, query: QueryMatcher, max: number): TextMatch[] {
  if (query.kind === 'text') return findMatches(text, query.regex, max);
  return findMatchesWith(text, (from) => query.matcher.find(text, from), max);
}

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Up to `max` matches of `pattern` (global) in `text`, in order. */
export function findMatches(text: string, pattern: RegExp, max: number): TextMatch[] {
  const re = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  return findMatchesWith(
    text,
    (from) => {
      re.lastIndex = from;
      const m = re.exec(text);
      return m && { index: m.index, end: m.index + m[0].length };
    },
    max,
  );
}

/** The first match at or after a position: where it starts and ends, or null. */
export type FindNext = (from: number) => { index: number; end: number } | null;

/** Up to `max` matches, in order, as `next` finds them one after the other (any matcher). */
export function findMatchesWith(text: string, next: FindNext, max: number): TextMatch[] {
  const out: TextMatch[] = [];
  let line = 1;
  let lineStart = 0;
  // The next line break not yet counted (-1: none left): each break is looked for once, so a
  // long line with many matches costs one pass, not one scan to its end per match.
  let nextBreak = text.indexOf('\n');
  let from = 0;
  let m: { index: number; end: number } | null;
  while (out.length < max && from <= text.length && (m = next(from)) !== null) {
    while (nextBreak !== -1 && nextBreak < m.index) {
      line++;
      lineStart = nextBreak + 1;
      nextBreak = text.indexOf('\n', lineStart);
    }
    out.push({ line, column: m.index - lineStart + 1, length: m.end - m.index, offset: m.index });
    // An empty match would find itself again forever: step past it.
    from = m.end === m.index ? m.index + 1 : m.end;
  }
  return out;
}

export const PREVIEW_CHARS = 160;

/** A match's line as a search shows it, and where the match lies in it. */
export interface MatchPreview {
  /** The line, without its line break, cut around the match when it is long (`…` where cut). */
  preview: string;
  /** The matched text in `preview`: from, to (UTF-16 offsets), clipped to the line shown. */
  from: number;
  to: number;
}

/** The line a match is on, cut around the match when it is long, with the match's place in it. */
export function previewOf(text: string, match: TextMatch): MatchPreview {
  const start = text.lastIndexOf('\n', match.offset - 1) + 1;
  let end = text.indexOf('\n', match.offset);
  if (end === -1) end = text.length;
  if (end > start && text[end - 1] === '\r') end--;
  const shown = (from: number, to: number, lead: string, preview: string): MatchPreview => {
    const clip = (offset: number) => lead.length + Math.min(Math.max(offset - from, 0), to - from);
    return { preview, from: clip(match.offset), to: clip(match.offset + match.length) };
  };
  if (end - start <= PREVIEW_CHARS) return shown(start, end, '', text.slice(start, end));
  const from = Math.max(start, Math.min(match.offset - 40, end - PREVIEW_CHARS));
  const to = Math.min(end, from + PREVIEW_CHARS);
  const lead = from > start ? '…' : '';
  return shown(from, to, lead, `${lead}${text.slice(from, to)}${to < end ? '…' : ''}`);
}

/** The match of `query` that starts at a line and column of `text` (as a search reported it), or null. */
export function matchAt(text: string, query: TextQuery, line: number, column: number): { from: number; to: number } | null {
  let start = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf('\n', start);
    if (next === -1) return null;
    start = next + 1;
  }
  const from = start + column - 1;
  if (from > text.length) return null;
  let compiled: QueryMatcher;
  try {
    compiled = compileQuery(query);
  } catch {
    return null;
  }
  if (compiled.kind === 'linear') {
    let m: { index: number; end: number } | null;
    try {
      m = compiled.matcher.find(text, from);
    } catch {
      return null; // too costly in this text: nothing highlighted
    }
    return m && m.index === from ? { from, to: m.end } : null;
  }
  const sticky = new RegExp(compiled.regex.source, `${compiled.regex.flags.replace('g', '')}y`);
  sticky.lastIndex = from;
  const m = sticky.exec(text);
  return m ? { from, to: from + m[0].length } : null;
}
