import { describe, expect, it } from 'vitest';
import type { DeletedFile, FileEntry, VersionInfo } from '../../../../shared/contract.js';
import { ancestorsOf, buildTree, visibleRows } from '../../../../renderer/features/project/treeModel.js';

const file = (path: string): FileEntry => ({ path, type: 'file', hash: path, mode: 0o644, size: 1 });
const deletion = (path: string): DeletedFile => ({
  path,
  deletion: {
    versionId: 1,
    snapshotId: 2,
    path,
    hash: null,
    mode: 0,
    size: 0,
    at: 0,
    kind: 'change',
    label: null,
    type: null,
    target: null,
    branch: null,
    head: null,
    origin: { kind: 'edit', fromVersionId: null, fromSnapshotId: null, fromGit: null, gitOperation: null, gitWhen: null },
    renamedFrom: null,
  } satisfies VersionInfo,
  lastContents: null,
  versionId: 1,
  snapshotId: 2,
  deletedAt: 0,
  lastVersionId: null,
  size: null,
});
const names = (rows: { node: { name: string }; depth: number }[]) => rows.map((r) => `${'  '.repeat(r.depth)}${r.node.name}`);

describe('the file tree model', () => {
  const files = ['README.md', 'src/app.ts', 'src/lib/a.ts', 'src/lib/b10.ts', 'src/lib/b9.ts', 'docs/guide.md'].map(file);

  it('lists folders first, names in natural order, only open folders expanded', () => {
    const root = buildTree(files, [], new Set(), false);
    expect(names(visibleRows(root, new Set(), ''))).toEqual(['docs', 'src', 'README.md']);
    expect(names(visibleRows(root, new Set(['src', 'src/lib']), ''))).toEqual([
      'docs',
      'src',
      '  lib',
      '    a.ts',
      '    b9.ts',
      '    b10.ts',
      '  app.ts',
      'README.md',
    ]);
  });

  it('filters by path and shows each match with its folders, open or not', () => {
    const root = buildTree(files, [], new Set(), false);
    expect(names(visibleRows(root, new Set(), 'LIB/B'))).toEqual(['src', '  lib', '    b9.ts', '    b10.ts']);
    expect(visibleRows(root, new Set(), 'nothing-matches')).toEqual([]);
  });

  it('marks a changed file and every folder above it', () => {
    const root = buildTree(files, [], new Set(['src/lib/a.ts']), false);
    const rows = visibleRows(root, new Set(['src', 'src/lib']), '');
    const changed = rows.filter((r) => r.node.changed).map((r) => r.node.path);
    expect(changed).toEqual(['src', 'src/lib', 'src/lib/a.ts']);
  });

  it('shows deleted files only on request, and a folder whose every file is deleted as deleted', () => {
    const deleted = [deletion('old/x.txt'), deletion('old/y.txt'), deletion('src/gone.ts')];
    expect(names(visibleRows(buildTree(files, deleted, new Set(), false), new Set(), ''))).toEqual(['docs', 'src', 'README.md']);
    const root = buildTree(files, deleted, new Set(), true);
    const rows = visibleRows(root, new Set(['old', 'src']), '');
    expect(rows.filter((r) => r.node.deleted).map((r) => r.node.path)).toEqual(['old', 'old/x.txt', 'old/y.txt', 'src/gone.ts']);
  });

  it('builds 100,000 paths and flattens them all under a filter', () => {
    const many: FileEntry[] = [];
    for (let d = 0; d < 100; d++) for (let f = 0; f < 1000; f++) many.push(file(`dir${d}/file${f}.txt`));
    const root = buildTree(many, [], new Set(), false);
    expect(visibleRows(root, new Set(), '')).toHaveLength(100);
    expect(visibleRows(root, new Set(), '.txt')).toHaveLength(100_100);
  });

  it('names the folders that contain a path', () => {
    expect(ancestorsOf('a/b/c.txt')).toEqual(['a', 'a/b']);
    expect(ancestorsOf('top.txt')).toEqual([]);
  });
});
