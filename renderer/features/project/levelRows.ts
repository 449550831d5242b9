import type { FolderLevel } from '../../../shared/contract.js';
import { compareTreeEntries } from '../../../shared/treeOrder.js';
import type { Levels } from '../../stores/treeLevels.js';
import type { TreeNode, TreeRow } from './treeModel.js';

// The rows of the tree drawn from its levels (stores/treeLevels.ts): each open folder's children
// under it, and where a level is still being read (or failed), one row that says so instead of
// nothing. Pure, so an expand costs one pass over the rows shown.

/** The path of a level's placeholder row: no file can have it (a NUL ends it). */
export function placeholderPath(folder: string): string {
  return folder === '' ? '\0' : `${folder}/\0`;
}

export function levelRows(levels: Levels, expanded: ReadonlySet<string>, showDeleted: boolean): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (folder: string, depth: number) => {
    const state = levels.get(folder);
    if (!state || state.status !== 'ready') {
      const error = state?.status === 'error';
      rows.push({ node: placeholder(folder, error ? 'error' : 'loading', error ? `Could not list this folder: ${state.error.message}` : 'Loading…'), depth });
      return;
    }
    for (const node of levelNodes(state.level, showDeleted)) {
      rows.push({ node, depth });
      if (node.folder && expanded.has(node.path)) walk(node.path, depth + 1);
    }
  };
  walk('', 0);
  return rows;
}

function placeholder(folder: string, kind: 'loading' | 'error', name: string): TreeNode {
  return { name, path: placeholderPath(folder), folder: false, deleted: false, changed: false, children: [], placeholder: kind };
}

// A level's nodes are built once per level answer (and per "show deleted"), not on every expand.
const built = [new WeakMap<FolderLevel, TreeNode[]>(), new WeakMap<FolderLevel, TreeNode[]>()] as const;

/** A level's children in tree order; with showDeleted, its deletions where they were. */
export function levelNodes(level: FolderLevel, showDeleted: boolean): TreeNode[] {
  const cache = built[showDeleted ? 1 : 0];
  const known = cache.get(level);
  if (known) return known;
  const nodes: TreeNode[] = [];
  for (const f of level.folders) {
    // A folder whose every file is deleted is shown (as deleted) only with the deleted files.
    if (f.files === 0 && !showDeleted) continue;
    nodes.push({ name: f.name, path: f.path, folder: true, deleted: f.files === 0, changed: f.changed || (showDeleted && f.deleted > 0), children: [] });
  }
  for (const f of level.files) nodes.push({ name: f.name, path: f.path, folder: false, deleted: false, changed: f.changed, children: [] });
  if (showDeleted && level.deleted.length > 0) {
    for (const d of level.deleted)
      nodes.push({ name: d.path.slice(d.path.lastIndexOf('/') + 1), path: d.path, folder: false, deleted: true, changed: true, children: [] });
    nodes.sort(compareTreeEntries);
  }
  cache.set(level, nodes);
  return nodes;
}

/** Whether the level is empty: no file now (and, with showDeleted, none deleted either). */
export function levelIsEmpty(level: FolderLevel, showDeleted: boolean): boolean {
  return levelNodes(level, showDeleted).length === 0;
}
