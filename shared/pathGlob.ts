// Globs over project paths, the one home for the file filter of the viewer and the search's
// --path: a pattern without a slash matches names at any depth, with one whole paths from the
// project's top; `**` spans folders, `*` and `?` stay within one name, `[...]` is a class, and a
// pattern ending in `/` matches everything in that folder. Case is ignored.
//
// Matching runs the pattern as a set of positions over the path, one step per character, so a
// path costs at most (path length x pattern length) steps whatever the pattern: a backtracking
// regex of many `**/` against a deep path took exponential time.

export type FileMatcher = (path: string) => boolean;

type Token =
  | { kind: 'char'; char: string }
  /** `?`: one character of a name. */
  | { kind: 'one' }
  | { kind: 'class'; negated: boolean; ranges: [string, string][] }
  /** `*`: any characters of one name. */
  | { kind: 'star' }
  /** `**` not followed by a slash: anything, across folders. */
  | { kind: 'globstar' }
  /** `**` then a slash: any number of whole folders, none included. */
  | { kind: 'folders' };

/** A glob as a matcher (see above): no slash, names at any depth; with one, paths from the top. */
export function globMatcher(pattern: string): FileMatcher {
  let body = pattern.startsWith('/') ? pattern.slice(1) : pattern;
  if (body.endsWith('/')) body += '**';
  const tokens = tokenize(body);
  if (!body.includes('/')) return (path) => matches(tokens, path.slice(path.lastIndexOf('/') + 1));
  return (path) => matches(tokens, path);
}

function tokenize(glob: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      tokens.push({ kind: slash ? 'folders' : 'globstar' });
      i += slash ? 2 : 1;
    } else if (c === '*') tokens.push({ kind: 'star' });
    else if (c === '?') tokens.push({ kind: 'one' });
    else if (c === '[' && glob.indexOf(']', i + 2) >= 0) {
      const end = glob.indexOf(']', i + 2);
      tokens.push(classToken(glob.slice(i + 1, end)));
      i = end;
    } else tokens.push({ kind: 'char', char: c });
  }
  return tokens;
}

/** `[abc]`, `[a-z]`, `[!x]` / `[^x]`: a `-` first or last is itself. */
function classToken(inner: string): Token {
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

/** Whether the whole of `path` matches: every position the pattern can be at, stepped one character at a time. */
function matches(tokens: readonly Token[], path: string): boolean {
  let current = new Uint8Array(tokens.length + 1);
  let next = new Uint8Array(tokens.length + 1);
  reach(tokens, current, 0);
  for (let p = 0; p < path.length; p++) {
    const c = path[p]!;
    next.fill(0);
    let any = false;
    for (let t = 0; t < tokens.length; t++) {
      if (!current[t]) continue;
      for (const to of steps(tokens[t]!, t, c)) {
        reach(tokens, next, to);
        any = true;
      }
    }
    if (!any) return false;
    [current, next] = [next, current];
  }
  return current[tokens.length] === 1;
}

/** Marks position `at` and every position reachable from it without a character (the stars may match nothing). */
function reach(tokens: readonly Token[], marks: Uint8Array, at: number): void {
  for (let t = at; t <= tokens.length && !marks[t]; t++) {
    marks[t] = 1;
    const kind = tokens[t]?.kind;
    if (kind !== 'star' && kind !== 'globstar' && kind !== 'folders') return;
  }
}

/** Where the token at position `t` goes on character `c`: stays (a star), moves on, both, or nowhere. */
function steps(token: Token, t: number, c: string): number[] {
  switch (token.kind) {
    case 'char':
      return sameLetter(token.char, c) ? [t + 1] : [];
    case 'one':
      return c === '/' ? [] : [t + 1];
    case 'class':
      return inClass(token, c) ? [t + 1] : [];
    case 'star':
      return c === '/' ? [] : [t];
    case 'globstar':
      return [t];
    case 'folders':
      // Within `(.*/)?`: any character stays inside; a slash may also close it.
      return c === '/' ? [t, t + 1] : [t];
  }
}

function sameLetter(a: string, b: string): boolean {
  return a === b || a.toLowerCase() === b.toLowerCase() || a.toUpperCase() === b.toUpperCase();
}

function inClass(token: Extract<Token, { kind: 'class' }>, c: string): boolean {
  const forms = [c, c.toLowerCase(), c.toUpperCase()];
  const member = token.ranges.some(([from, to]) => forms.some((f) => f.length === 1 && f >= from && f <= to));
  return member !== token.negated;
}
