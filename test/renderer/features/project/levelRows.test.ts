import { describe, expect, it } from 'vitest';
import type { DeletedFile, FolderLevel } from '../../../../shared/contract.js';
import { levelRows } from '../../../../renderer/features/project/levelRows.js';
import type { LevelState } from '../../../../renderer/stores/treeLevels.js';
import { levelsToRefresh } from '../../../../renderer/stores/treeLevels.js';

// The tree's rows from its levels: folders first, each open folder's level under it, a row that
// says "Loading…" (or why it failed) where a level is not here yet, and deleted files and wholly
// deleted folders only when asked for.

const file = (path: string, changed = false) => ({
  name: path.slice(path.lastIndexOf('/') + 1),
  path,
  type: 'file' as const,
  hash: path,
  mode: 0o644,
  size: 1,
  changed,
});
const deletion = (path: string) => ({ path }) as DeletedFile;
const ready = (level: Omit<FolderLevel, 'snapshotId'>): LevelState => ({ status: 'ready', level: { snapshotId: 2, ...level } });
const names = (rows: { node: { name: string; deleted: boolean; changed: boolean; placeholder?: string }; depth: number }[]) =>
  rows.map((r) => `${'  '.repeat(r.depth)}${r.node.name}${r.node.deleted ? ' (deleted)' : ''}${r.node.changed && !r.node.placeholder ? ' *' : ''}`);

const levels = new Map<string, LevelState>([
  [
    '',
    ready({
      folder: '',
      folders: [
        { name: 'gone', path: 'gone', files: 0, deleted: 2, changed: false },
        { name: 'src', path: 'src', files: 2, deleted: 1, changed: true },
      ],
      files: [file('b.txt'), file('d.txt')],
      deleted: [deletion('c.txt')],
    }),
  ],
  [
    'src',
    ready({
      folder: 'src',
      folders: [{ name: 'lib', path: 'src/lib', files: 1, deleted: 0, changed: false }],
      files: [file('src/a.ts', true)],
      deleted: [deletion('src/old.ts')],
    }),
  ],
  ['src/lib', { status: 'loading' }],
]);

describe('rows from the tree’s levels', () => {
  it('draws open folders’ levels under them, and a Loading… row for a level not here yet', () => {
    expect(names(levelRows(levels, new Set(), false))).toEqual(['src *', 'b.txt', 'd.txt']);
    expect(names(levelRows(levels, new Set(['src', 'src/lib']), false))).toEqual(['src *', '  lib', '    Loading…', '  a.ts *', 'b.txt', 'd.txt']);
    expect(names(levelRows(new Map(), new Set(), false))).toEqual(['Loading…']);
  });

  it('says why a level could not be read', () => {
    const failed = new Map(levels).set('src/lib', { status: 'error', error: { code: 'INTERNAL', message: 'disk on fire' } });
    const rows = levelRows(failed, new Set(['src', 'src/lib']), false);
    expect(rows[2]!.node).toMatchObject({ placeholder: 'error', name: 'Could not list this folder: disk on fire' });
  });

  it('shows deleted files where they were, and a folder whose every file is deleted as deleted, only on request', () => {
    expect(names(levelRows(levels, new Set(['src']), true))).toEqual([
      'gone (deleted) *',
      'src *',
      '  lib',
      '  a.ts *',
      '  old.ts (deleted) *',
      'b.txt',
      'c.txt (deleted) *',
      'd.txt',
    ]);
  });

  it('reads the root and the open folders again after a change, and forgets closed ones', () => {
    expect(levelsToRefresh(levels, new Set(['src/lib']))).toEqual({ refetch: ['', 'src/lib'], drop: ['src'] });
  });
});
