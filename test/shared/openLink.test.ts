import { describe, expect, it } from 'vitest';
import { HindsightError } from '../../shared/errors.js';
import { knownTarget, parseOpenLink } from '../../shared/openLink.js';

// hindsight://open links, which any web page can fire: read strictly (BAD_REQUEST for anything
// else), and followed only into a project the app already knows.

const POSIX = { windows: false, caseless: false };
const WINDOWS = { windows: true, caseless: true };

function refused(url: string): string {
  try {
    parseOpenLink(url);
  } catch (error) {
    expect(error).toBeInstanceOf(HindsightError);
    expect((error as HindsightError).code).toBe('BAD_REQUEST');
    return (error as HindsightError).message;
  }
  throw new Error(`${url} was taken`);
}

describe('parseOpenLink', () => {
  it('reads a path and a line', () => {
    expect(parseOpenLink('hindsight://open?path=%2Fhome%2Fa%2Fsite%2Fsrc%2Fapp.ts&line=12')).toEqual({ path: '/home/a/site/src/app.ts', line: 12 });
    expect(parseOpenLink('hindsight://open/?path=/home/a/site')).toEqual({ path: '/home/a/site', line: null });
    expect(parseOpenLink('hindsight:open?path=C%3A%5Cwork%5Csite%5Ca.txt&line=1')).toEqual({ path: 'C:\\work\\site\\a.txt', line: 1 });
  });

  it('refuses anything else, saying what a link is', () => {
    expect(refused('https://open?path=/a')).toContain('hindsight://open?path=FILE&line=N');
    expect(refused('hindsight://restore?path=/a')).toContain('"restore"');
    expect(refused('hindsight://open?path=/a&snapshot=3')).toContain('"snapshot"');
    refused('hindsight://open?path=/a&path=/b');
    refused('hindsight://open?line=3');
    refused('hindsight://open?path=relative/a.txt');
    refused('hindsight://open?path=/home/a/site/../../etc/passwd');
    refused('hindsight://open?path=C:\\site\\..\\x');
    refused('hindsight://open?path=/a%00b');
    for (const line of ['0', '-1', '1.5', 'x', '', '99999999999']) refused(`hindsight://open?path=/a&line=${line}`);
    refused(`hindsight://open?path=/${'a'.repeat(9000)}`);
    refused('not a url');
  });
});

describe('knownTarget', () => {
  const projects = [
    { projectId: 'site', root: '/home/a/site' },
    { projectId: 'docs', root: '/home/a/site/docs' },
    { projectId: 'win', root: 'C:\\Work\\App' },
  ];

  it('finds the deepest known project holding the path, with the path inside it', () => {
    expect(knownTarget({ path: '/home/a/site/src/app.ts', line: 4 }, projects, POSIX)).toEqual({ projectId: 'site', path: 'src/app.ts', line: 4 });
    expect(knownTarget({ path: '/home/a/site/docs/intro.md', line: null }, projects, POSIX)).toEqual({ projectId: 'docs', path: 'intro.md', line: null });
    expect(knownTarget({ path: '/home/a/site/', line: 9 }, projects, POSIX)).toEqual({ projectId: 'site', path: null, line: null });
    expect(knownTarget({ path: 'c:\\work\\app\\src\\main.c', line: 2 }, projects, WINDOWS)).toEqual({ projectId: 'win', path: 'src/main.c', line: 2 });
  });

  it('answers null for a path in no known project', () => {
    expect(knownTarget({ path: '/home/a/sitemap/x', line: null }, projects, POSIX)).toBeNull();
    expect(knownTarget({ path: '/home/a', line: null }, projects, POSIX)).toBeNull();
    expect(knownTarget({ path: '/HOME/A/SITE/x', line: null }, projects, POSIX)).toBeNull();
    expect(knownTarget({ path: '/etc/passwd', line: 1 }, [], POSIX)).toBeNull();
  });
});
