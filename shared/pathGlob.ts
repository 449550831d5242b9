// Globs over project paths, the one home for the file filter of the viewer and the search's
// --path. Whole names: a pattern is cut at its slashes into one pattern per name, and each name
// of the path is matched whole by one of them, so `*`, `?` and `[...]` never cross a `/` and
// `**/ctx.py` never ends inside a name such as `test_appctx.py`. A name that is exactly `**`
// stands for any number of whole names (`**/x`: x at any depth, `a/**/b`: b anywhere under a);
// a final one, or a final `/`, for everything in that folder (one name at least: the folder
// itself is not in it). `**` inside a name is a `*`. A pattern without a slash matches base
// names at any depth; with one (a leading one included), whole paths from the project's top.
// Case is ignored the way RegExp's `i` flag ignores it; dot files are matched like any other.
//
// Matching steps a set of positions through the path, one name at a time and, within a name,
// one character at a time: a path costs at most (path length x pattern length) steps whatever
// the pattern, where a backtracking regex of many `*a` against a long name takes exponential
// time. Syntax picomatch has and Hindsight does not (braces, extglobs, a leading `!`, backslash
// escapes, POSIX classes) is plain text here; docs/CLI.md lists the differences.

export type FileMatcher = (path: string) => boolean;

/** Counts the steps a matcher takes (one per position alive at each character), for the tests of its cost. */
export interface GlobMeter {
  steps: number;
}

type NameToken =
  /** One character; `same` is it as RegExp's `i` flag compares it (canonical). */
  | { kind: 'char'; char: string; same: string }
  /** `?`: one character. */
  | { kind: 'one' }
  | { kind: 'class'; negated: boolean; ranges: [string, string][] }
  /** `*`: any characters of the name, none included. */
  | { kind: 'star' };

/**
 * One name of the pattern: its tokens with the two rows of marks a match steps between (a matcher
 * is used by one caller at a time, so each keeps its own and allocates nothing per path), or
 * `**`: any number of whole names.
 */
type Segment = { tokens: NameToken[]; marks: [Uint8Array, Uint8Array] } | 'names';

/** A glob as a matcher (see above): no slash, base names at any depth; with one, paths from the top. */
export function globMatcher(pattern: string, meter: GlobMeter = { steps: 0 }): FileMatcher {
  let body = pattern.startsWith('/') ? pattern.slice(1) : pattern;
  if (body.endsWith('/')) body += '**';
  const segments = body.split('/').map(segmentOf);
  const marks = rowsOf(segments.length);
  if (!pattern.includes('/')) return (path) => matchesNames(segments, marks, [path.slice(path.lastIndexOf('/') + 1)], meter);
  return (path) => matchesNames(segments, marks, path.split('/'), meter);
}

function segmentOf(name: string): Segment {
  if (name === '**') return 'names';
  const tokens = nameTokens(name);
  return { tokens, marks: rowsOf(tokens.length) };
}

/** Two rows of marks for positions 0..length. */
function rowsOf(length: number): [Uint8Array, Uint8Array] {
  return [new Uint8Array(length + 1), new Uint8Array(length + 1)];
}

function nameTokens(name: string): NameToken[] {
  const tokens: NameToken[] = [];
  for (let i = 0; i < name.length; i++) {
    const c = name[i]!;
    const end = c === '[' ? classEnd(name, i) : -1;
    if (c === '*') {
      // A run of stars is one star: `**` inside a name crosses no slash.
      if (tokens[tokens.length - 1]?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === '?') tokens.push({ kind: 'one' });
    else if (end > 0) {
      tokens.push(classToken(name.slice(i + 1, end)));
      i = end;
    } else tokens.push({ kind: 'char', char: c, same: canonical(c) });
  }
  return tokens;
}

/** Where the class opened at `open` closes, or -1: a `]` right after `[`, `[!` or `[^` is a member. */
function classEnd(name: string, open: number): number {
  const first = name[open + 1] === '!' || name[open + 1] === '^' ? open + 2 : open + 1;
  return name.indexOf(']', first + 1);
}

/** `[abc]`, `[a-z]`, `[!x]` / `[^x]`: a `-` first or last is itself. */
function classToken(inner: string): NameToken {
  const negated = inner.startsWith('!') || inner.startsWith('^');
  const members = negated ? inner.slice(1) : inner;
  const ranges: [string, string][] = [];
  for (let i = 0; i < members.length; i++) {
    const from = members[i]!;
    if (members[i + 1] === '-' && i + 2 < members.length) {
      ranges.push([from, members[i + 2]!]);
      i += 2;
    } else ranges.push([from, from]);
  }
  return { kind: 'class', negated, ranges };
}

/**
 * Whether the path's names match the segments: every segment the pattern can be at, stepped one
 * name at a time. A `**` may be skipped, except a final one, which holds one name at least.
 */
function matchesNames(segments: readonly Segment[], marks: [Uint8Array, Uint8Array], names: readonly string[], meter: GlobMeter): boolean {
  const last = segments.length - 1;
  let [current, next] = marks;
  current.fill(0);
  const reach = (marks: Uint8Array, at: number) => {
    for (let s = at; s <= segments.length && !marks[s]; s++) {
      marks[s] = 1;
      if (segments[s] !== 'names' || s === last) return;
    }
  };
  reach(current, 0);
  for (const name of names) {
    next.fill(0);
    let any = false;
    for (let s = 0; s < segments.length; s++) {
      if (!current[s]) continue;
      const segment = segments[s]!;
      if (segment === 'names') {
        reach(next, s);
        if (s === last) next[s + 1] = 1;
      } else if (matchesName(segment, name, meter)) reach(next, s + 1);
      else continue;
      any = true;
    }
    if (!any) return false;
    [current, next] = [next, current];
  }
  return current[segments.length] === 1;
}

/** Whether the whole of `name` matches the segment's tokens: every position they can be at, one character at a time. */
function matchesName({ tokens, marks }: Exclude<Segment, 'names'>, name: string, meter: GlobMeter): boolean {
  let [current, next] = marks;
  current.fill(0);
  const reach = (marks: Uint8Array, at: number) => {
    marks[at] = 1;
    if (tokens[at]?.kind === 'star') marks[at + 1] = 1;
  };
  reach(current, 0);
  for (let p = 0; p < name.length; p++) {
    const c = name[p]!;
    next.fill(0);
    let any = false;
    for (let t = 0; t < tokens.length; t++) {
      if (!current[t]) continue;
      meter.steps++;
      const token = tokens[t]!;
      if (token.kind === 'star') reach(next, t);
      else if (takes(token, c)) reach(next, t + 1);
      else continue;
      any = true;
    }
    if (!any) return false;
    [current, next] = [next, current];
  }
  return current[tokens.length] === 1;
}

function takes(token: Exclude<NameToken, { kind: 'star' }>, c: string): boolean {
  switch (token.kind) {
    case 'char':
      return token.char === c || token.same === canonical(c);
    case 'one':
      return true;
    case 'class':
      return inClass(token, c);
  }
}

/**
 * A character as RegExp's `i` flag compares it (without `u`): its upper case when that is one
 * character, except that a character past ASCII never becomes one within it (so `ſ` is not `s`).
 */
function canonical(c: string): string {
  const upper = c.toUpperCase();
  if (upper.length !== 1) return c;
  return c.charCodeAt(0) >= 128 && upper.charCodeAt(0) < 128 ? c : upper;
}

/** A member of the class, case ignored: some character the same as `c` to RegExp's `i` lies in one of its ranges. */
function inClass(token: Extract<NameToken, { kind: 'class' }>, c: string): boolean {
  const same = canonical(c);
  const forms = [c, same, same.toLowerCase(), c.toLowerCase()].filter((f) => f.length === 1 && canonical(f) === same);
  const member = token.ranges.some(([from, to]) => forms.some((f) => f >= from && f <= to));
  return member !== token.negated;
}
