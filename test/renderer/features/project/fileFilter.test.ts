import { describe, expect, it } from 'vitest';
import { compileFilter, globMatcher } from '../../../../renderer/features/project/fileFilter.js';
import { buildTree, visibleRows } from '../../../../renderer/features/project/treeModel.js';
import type { FileEntry } from '../../../../shared/contract.js';

// The file filter as a person types it: globs, plain text, and letters in order when no path
// contains the text.

const PATHS = [
  'builtin/add.c',
  'builtin/add.h',
  'builtin/commit.c',
  'src/main.c',
  'src/lib/list.c',
  'src/lib/list.h',
  'README.md',
  'docs/adding.md',
  't/t3700-add.sh',
];

function matching(filter: string): string[] {
  const compiled = compileFilter(filter, PATHS);
  return compiled === null ? PATHS : PATHS.filter(compiled.matches);
}

describe('the file filter', () => {
  it('takes globs: a name pattern at any depth, a path pattern from the top, ** across folders', () => {
    expect(matching('*.h')).toEqual(['builtin/add.h', 'src/lib/list.h']);
    expect(matching('src/**/*.c')).toEqual(['src/main.c', 'src/lib/list.c']);
    expect(matching('src/*.c')).toEqual(['src/main.c']);
    expect(matching('**/list.?')).toEqual(['src/lib/list.c', 'src/lib/list.h']);
    expect(matching('builtin/')).toEqual(['builtin/add.c', 'builtin/add.h', 'builtin/commit.c']);
    expect(matching('*.[ch]')).toEqual(['builtin/add.c', 'builtin/add.h', 'builtin/commit.c', 'src/main.c', 'src/lib/list.c', 'src/lib/list.h']);
    expect(matching('[!a]*.c')).toEqual(['builtin/commit.c', 'src/main.c', 'src/lib/list.c']);
    expect(matching('*.MD')).toEqual(['README.md', 'docs/adding.md']);
    expect(compileFilter('*.h', PATHS)!.kind).toBe('glob');
  });

  it('matches plain text in paths, and letters in order only when no path contains the text', () => {
    expect(matching('add')).toEqual(['builtin/add.c', 'builtin/add.h', 'docs/adding.md', 't/t3700-add.sh']);
    expect(compileFilter('add', PATHS)!.kind).toBe('text');
    expect(matching('addc')).toEqual(['builtin/add.c']);
    expect(compileFilter('addc', PATHS)!.kind).toBe('fuzzy');
    expect(matching('bi/add')).toEqual(['builtin/add.c', 'builtin/add.h']);
    expect(matching('LIB/LIST.H')).toEqual(['src/lib/list.h']);
    expect(matching('zzz')).toEqual([]);
    expect(compileFilter('   ', PATHS)).toBeNull();
  });

  it('finds a name typed in another case or Unicode normalization, as a Mac folder would', () => {
    const paths = ['notes/Cafe\u0301.md', 'notes/other.md', 'Straße.txt'];
    const found = (filter: string) => paths.filter(compileFilter(filter, paths)!.matches);
    expect(found('CAFÉ')).toEqual(['notes/Cafe\u0301.md']);
    expect(found('café.md')).toEqual(['notes/Cafe\u0301.md']);
    expect(found('cfé')).toEqual(['notes/Cafe\u0301.md']);
    expect(found('STRASSE')).toEqual(['Straße.txt']);
  });

  it('treats regular expression characters in a glob as themselves', () => {
    expect(globMatcher('a+b(1).txt')('x/a+b(1).txt')).toBe(true);
    expect(globMatcher('a+b(1).txt')('x/aab(1).txt')).toBe(false);
    expect(globMatcher('[unclosed')('[unclosed')).toBe(true);
  });

  it('filters the tree: matches with their folders', () => {
    const files = PATHS.map((path): FileEntry => ({ path, type: 'file', hash: path, mode: 0o644, size: 1 }));
    const rows = visibleRows(buildTree(files, [], new Set(), false), new Set(), 'addc');
    expect(rows.map((r) => r.node.path)).toEqual(['builtin', 'builtin/add.c']);
  });
});
