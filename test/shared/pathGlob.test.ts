import { describe, expect, it } from 'vitest';
import { globMatcher } from '../../shared/pathGlob.js';

// The glob matcher steps through a path once per character: the same answers as the regular
// expression it replaced (kept here as the reference), without its exponential time on a
// pattern of many `**/` against a deep path.

describe('globMatcher', () => {
  it('answers as the regular expression translation did, on every pattern and path here', () => {
    const patterns = [
      '*.ts',
      'src/*',
      'docs/',
      '/src/**',
      '**/b.ts',
      'src/**/b.ts',
      '**',
      'a?c',
      '[ab]*.md',
      '[!a]*',
      '[^a-c]x',
      'SRC/*.TS',
      'src/**/deep/**/*.ts',
      '**/',
      'a*b*c',
      '*/*',
      '[unclosed',
      'a+b(1).txt',
      'x-[a-]',
      'src/**',
      '?',
      'src/*/b.ts',
      '**/**/c.md',
      '[Z]*',
      'a**b',
    ];
    const paths = [
      'src/a.ts',
      'src/deep/b.ts',
      'docs/c.md',
      'README.md',
      'abc',
      'aXc',
      'a/c',
      'bx',
      'dx',
      'src',
      'SRC/A.TS',
      'src/deep/deeper/x.ts',
      'a+b(1).txt',
      '[unclosed',
      'x-a',
      'x--',
      'x-b',
      'zed',
      'a/b/c',
      'ab',
      'aXbYc',
      '',
    ];
    for (const pattern of patterns) {
      const reference = regexGlob(pattern);
      const matcher = globMatcher(pattern);
      for (const path of paths) expect(matcher(path), `${pattern} on ${path}`).toBe(reference(path));
    }
  });

  it('answers a pattern of many **/ against a deep path at once', () => {
    const pattern = `${'**/'.repeat(40)}x`;
    const deep = `${'d/'.repeat(400)}y`;
    expect(globMatcher(pattern)(deep)).toBe(false);
    expect(globMatcher(pattern)(`${'d/'.repeat(400)}x`)).toBe(true);
    expect(globMatcher(`${'*a'.repeat(30)}b`)('a'.repeat(2000))).toBe(false);
  });
});

/** The regular expression translation shared/pathGlob.ts used before: the reference for its answers. */
function regexGlob(pattern: string): (path: string) => boolean {
  let body = pattern.startsWith('/') ? pattern.slice(1) : pattern;
  if (body.endsWith('/')) body += '**';
  const regex = new RegExp(`^${globToRegex(body)}$`, 'i');
  return body.includes('/') ? (path) => regex.test(path) : (path) => regex.test(path.slice(path.lastIndexOf('/') + 1));
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
