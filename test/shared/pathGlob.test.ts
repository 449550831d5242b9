import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { globMatcher, type GlobMeter } from '../../shared/pathGlob.js';
import { globCases } from './globCases.js';

// Globs with whole names (shared/pathGlob.ts): the cases a user met, the rules one by one, the
// answers of picomatch (the reference, with the options that say the same) on generated cases,
// and the cost counted in steps. picomatch is in node_modules as a dependency of the tools, not
// of the project: it is loaded by name, untyped.

type Picomatch = (glob: string, options: Record<string, boolean>) => (path: string) => boolean;
const picomatch = createRequire(import.meta.url)('picomatch') as Picomatch;

const matches = (glob: string, path: string) => globMatcher(glob)(path);

describe('globMatcher', () => {
  it('never ends **/ctx.py inside a name: tests/test_appctx.py and src/xctx.py are not ctx.py', () => {
    expect(matches('**/ctx.py', 'tests/test_appctx.py')).toBe(false);
    expect(matches('**/ctx.py', 'src/xctx.py')).toBe(false);
    expect(matches('**/ctx.py', 'src/ctx.py')).toBe(true);
    expect(matches('**/ctx.py', 'ctx.py')).toBe(true);
    expect(matches('src/**/ctx.py', 'src/a/b/ctx.py')).toBe(true);
    expect(matches('src/**/ctx.py', 'src/a/bctx.py')).toBe(false);
  });

  it('keeps *, ? and classes within one name', () => {
    expect(matches('src/*', 'src/a.ts')).toBe(true);
    expect(matches('src/*', 'src/deep/a.ts')).toBe(false);
    expect(matches('a?c', 'a/c')).toBe(false);
    expect(matches('a[/]c', 'a/c')).toBe(false);
    expect(matches('a**b', 'a/x/b')).toBe(false);
    expect(matches('a**b', 'axxb')).toBe(true);
  });

  it('reads X/** and X/ as everything in X, the folder itself not included', () => {
    for (const glob of ['docs/**', 'docs/', '/docs/']) {
      expect(matches(glob, 'docs/c.md'), glob).toBe(true);
      expect(matches(glob, 'docs/a/b/c.md'), glob).toBe(true);
      expect(matches(glob, 'docs'), glob).toBe(false);
      expect(matches(glob, 'src/docs/c.md'), glob).toBe(false);
    }
    expect(matches('**', 'a/b/c')).toBe(true);
    expect(matches('a/**/b', 'a/b')).toBe(true);
  });

  it('matches a pattern without a slash against base names, one with a slash from the top', () => {
    expect(matches('*.md', 'docs/deep/README.md')).toBe(true);
    expect(matches('README.md', 'docs/README.md')).toBe(true);
    expect(matches('/README.md', 'docs/README.md')).toBe(false);
    expect(matches('/README.md', 'README.md')).toBe(true);
    expect(matches('docs/*.md', 'x/docs/a.md')).toBe(false);
  });

  it('ignores case and matches dot files like any other', () => {
    expect(matches('SRC/*.TS', 'src/a.ts')).toBe(true);
    expect(matches('[A-C]x', 'bx')).toBe(true);
    expect(matches('*', '.github')).toBe(true);
    expect(matches('**/*.yml', '.github/workflows/ci.yml')).toBe(true);
    expect(matches('ſ', 's')).toBe(false);
  });

  it('answers as picomatch on 100,000 generated cases, but for the differences docs/CLI.md names', () => {
    const named = { folderItself: 0, classAcrossSlash: 0, dotStarAtEnd: 0 };
    const unexplained: string[] = [];
    let matched = 0;
    for (const { glob, paths } of globCases(41, 20_000, 5)) {
      const ours = globMatcher(glob);
      const reference = picomatchOf(glob);
      for (const path of paths) {
        const answer = ours(path);
        if (answer) matched++;
        if (answer === reference(path)) continue;
        const why = namedDifference(glob, path, answer);
        if (why) named[why]++;
        else if (unexplained.length < 10) unexplained.push(`${JSON.stringify(glob)} on ${JSON.stringify(path)}: ${answer}`);
      }
    }
    expect(unexplained).toEqual([]);
    // Both answers are common, and each named difference occurs in the cases.
    expect(matched).toBeGreaterThan(25_000);
    expect(Object.values(named).every((n) => n > 0)).toBe(true);
  }, 120_000);

  it('takes at most (pattern length + 1) x (path length) steps on patterns that backtrack without end', () => {
    const cases: [string, string][] = [
      ['*a*a*a*a*a*b', 'a'.repeat(5000)],
      [`${'*a'.repeat(30)}b`, 'a'.repeat(2000)],
      [`${'**/'.repeat(40)}x`, `${'d/'.repeat(400)}y`],
      [`${'**/*a'.repeat(10)}/b`, `${'a/'.repeat(300)}c`],
    ];
    for (const [glob, path] of cases) {
      const meter: GlobMeter = { steps: 0 };
      expect(globMatcher(glob, meter)(path), glob).toBe(false);
      expect(meter.steps, glob).toBeGreaterThan(0);
      expect(meter.steps, glob).toBeLessThanOrEqual((glob.length + 1) * path.length);
    }
    expect(matches(`${'**/'.repeat(40)}x`, `${'d/'.repeat(400)}x`)).toBe(true);
  });
});

/** picomatch as Hindsight reads a glob: a leading `/` anchors (picomatch anchors anyway), a final `/` is `/**`. */
function picomatchOf(glob: string): (path: string) => boolean {
  return picomatch(hindsightForm(glob), { nocase: true, dot: true, posix: true, basename: !glob.includes('/') });
}

function hindsightForm(glob: string): string {
  const body = glob.startsWith('/') ? glob.slice(1) : glob;
  return body.endsWith('/') ? `${body}**` : body;
}

/**
 * Which difference docs/CLI.md names explains that our answer differs from picomatch's, checked
 * by asking picomatch the question the difference says it answers otherwise.
 */
function namedDifference(glob: string, path: string, ours: boolean): 'folderItself' | 'classAcrossSlash' | 'dotStarAtEnd' | undefined {
  const form = hindsightForm(glob);
  const ask = (other: string) => picomatch(other, { nocase: true, dot: true, posix: true, basename: !glob.includes('/') })(path);
  // `X/**` holds what is in X, not X: picomatch also matches X.
  if (!ours && form.endsWith('/**') && ask(form.slice(0, -3))) return 'folderItself';
  // A `[` whose `]` is past a slash is a plain `[`: picomatch reads a class across the slash.
  const literalBrackets = form.replace(/\[(?=[^\]]*\/)/g, '\\[');
  if (literalBrackets !== form && ask(literalBrackets) === ours) return 'classAcrossSlash';
  // A final `.*` matches a name ending in `.`: picomatch wants a character after the dot.
  if (ours && form.endsWith('.*') && path.endsWith('.') && ask(form.slice(0, -1))) return 'dotStarAtEnd';
  return undefined;
}
