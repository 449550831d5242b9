// Globs over project paths, the one home for the file filter of the viewer and the search's
// --path: a pattern without a slash matches names at any depth, with one whole paths from the
// project's top; `**` spans folders, `*` and `?` stay within one name, `[...]` is a class, and a
// pattern ending in `/` matches everything in that folder. Case is ignored.

export type FileMatcher = (path: string) => boolean;

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
