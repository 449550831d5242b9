// What the file filter matches. A pattern with *, ? or [...] is a glob: `*.h` matches names at
// any depth, `src/**/*.c` matches paths from the project's top (`**` spans folders), a pattern
// ending in `/` matches everything in that folder. Anything else is plain text: the paths that
// contain it; and when none does, the names that contain its letters in order, so `addc` finds
// add.c (with a `/` in it, whole paths: `bi/add` finds builtin/add.c). Case is ignored.

export type FileMatcher = (path: string) => boolean;

export type FilterKind = 'glob' | 'text' | 'fuzzy';

export interface CompiledFilter {
  kind: FilterKind;
  matches: FileMatcher;
}

const GLOB_CHARS = /[*?[]/;

/**
 * The matcher for a filter as typed, or null when there is nothing to filter by. `paths` are the
 * files it will be asked about: plain text falls back to letters in order only when no path
 * contains the text itself.
 */
export function compileFilter(filter: string, paths: Iterable<string>): CompiledFilter | null {
  const typed = filter.trim();
  if (typed === '') return null;
  if (GLOB_CHARS.test(typed) || typed.endsWith('/')) return { kind: 'glob', matches: globMatcher(typed) };
  const needle = typed.toLowerCase();
  const text: FileMatcher = (path) => path.toLowerCase().includes(needle);
  for (const path of paths) if (text(path)) return { kind: 'text', matches: text };
  return { kind: 'fuzzy', matches: fuzzyMatcher(needle) };
}

/** A glob as a matcher (see above): no slash, names at any depth; with one, paths from the top. */
export function globMatcher(pattern: string): FileMatcher {
  let body = pattern.startsWith('/') ? pattern.slice(1) : pattern;
  if (body.endsWith('/')) body += '**';
  const onName = !body.includes('/');
  const regex = new RegExp(`^${globToRegex(body)}$`, 'i');
  return onName ? (path) => regex.test(path.slice(path.lastIndexOf('/') + 1)) : (path) => regex.test(path);
}

function globToRegex(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      // `**/` spans any number of folders (none included); a final `**` everything below.
      const slash = glob[i + 2] === '/';
      out += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') {
      out += '[^/]*';
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) {
        out += '\\[';
        continue;
      }
      const inner = glob.slice(i + 1, end);
      const negated = inner.startsWith('!') || inner.startsWith('^');
      const members = (negated ? inner.slice(1) : inner).replace(/[\\\]^]/g, (m) => `\\${m}`);
      out += `[${negated ? '^' : ''}${members}]`;
      i = end;
    } else {
      out += c.replace(/[.+^${}()|\\/]/g, (m) => `\\${m}`);
    }
  }
  return out;
}

/** The letters of `needle` in order in the name (or, with a slash in it, in the whole path). */
export function fuzzyMatcher(needle: string): FileMatcher {
  const lower = needle.toLowerCase();
  const onPath = lower.includes('/');
  return (path) => {
    const hay = (onPath ? path : path.slice(path.lastIndexOf('/') + 1)).toLowerCase();
    let at = 0;
    for (const ch of lower) {
      at = hay.indexOf(ch, at);
      if (at < 0) return false;
      at++;
    }
    return true;
  };
}
