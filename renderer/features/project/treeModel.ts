import type { DeletedFile, FileEntry } from '../../../shared/contract.js';
import { compareTreeEntries } from '../../../shared/treeOrder.js';
import { compileFilter } from './fileFilter.js';

// The file tree as the viewer draws it: folders built once from the flat, sorted path list, then
// flattened into the rows that are visible (open folders, or every match of the filter). Pure
// functions, so 100,000 paths cost one pass to build and one pass per expand or filter.

export interface TreeNode {
  name: string;
  path: string;
  folder: boolean;
  deleted: boolean;
  /** Differs from the baseline (for a folder: something under it does). */
  changed: boolean;
  children: TreeNode[];
  /** Not a file or folder: the row standing for a level still being read, or one that failed. */
  placeholder?: 'loading' | 'error';
}

export interface TreeRow {
  node: TreeNode;
  depth: number;
}

export function buildTree(files: FileEntry[], deleted: DeletedFile[], changed: ReadonlySet<string>, showDeleted: boolean): TreeNode {
  const root: TreeNode = { name: '', path: '', folder: true, deleted: false, changed: false, children: [] };
  const folders = new Map<string, TreeNode>([['', root]]);

  function folderOf(path: string): TreeNode {
    const known = folders.get(path);
    if (known) return known;
    const slash = path.lastIndexOf('/');
    const parent = folderOf(slash < 0 ? '' : path.slice(0, slash));
    const node: TreeNode = { name: path.slice(slash + 1), path, folder: true, deleted: false, changed: false, children: [] };
    parent.children.push(node);
    folders.set(path, node);
    return node;
  }

  function add(path: string, isDeleted: boolean, isChanged: boolean): void {
    const slash = path.lastIndexOf('/');
    const parent = folderOf(slash < 0 ? '' : path.slice(0, slash));
    parent.children.push({ name: path.slice(slash + 1), path, folder: false, deleted: isDeleted, changed: isChanged, children: [] });
    if (isChanged || isDeleted) markChanged(parent, folders);
  }

  for (const f of files) add(f.path, false, changed.has(f.path));
  if (showDeleted) for (const d of deleted) add(d.path, true, true);
  if (showDeleted) markDeletedFolders(root);
  sortTree(root);
  return root;
}

function markChanged(folder: TreeNode, folders: Map<string, TreeNode>): void {
  let path: string | null = folder.path;
  while (path !== null) {
    const node = folders.get(path);
    if (!node || node.changed) return;
    node.changed = true;
    path = path === '' ? null : path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
  }
}

/** A folder whose every file is deleted is itself shown as deleted. */
function markDeletedFolders(node: TreeNode): boolean {
  if (!node.folder) return node.deleted;
  let all = node.children.length > 0;
  for (const child of node.children) if (!markDeletedFolders(child)) all = false;
  node.deleted = all && node.path !== '';
  return node.deleted;
}

function sortTree(node: TreeNode): void {
  node.children.sort(compareTreeEntries);
  for (const child of node.children) if (child.folder) sortTree(child);
}

/** The rows to draw: children of open folders, or with a filter every match and its folders (fileFilter.ts). */
export function visibleRows(root: TreeNode, expanded: ReadonlySet<string>, filter: string): TreeRow[] {
  const rows: TreeRow[] = [];
  const compiled = filter.trim() === '' ? null : compileFilter(filter, filePaths(root));
  if (compiled === null) {
    const walk = (node: TreeNode, depth: number) => {
      for (const child of node.children) {
        rows.push({ node: child, depth });
        if (child.folder && expanded.has(child.path)) walk(child, depth + 1);
      }
    };
    walk(root, 0);
    return rows;
  }
  const matches = (node: TreeNode): boolean => compiled.matches(node.path);
  // Folders go in first and are taken out again when nothing under them matched.
  const walkFiltered = (node: TreeNode, depth: number): boolean => {
    let any = false;
    for (const child of node.children) {
      if (child.folder) {
        const at = rows.length;
        rows.push({ node: child, depth });
        if (walkFiltered(child, depth + 1)) any = true;
        else rows.length = at;
      } else if (matches(child)) {
        rows.push({ node: child, depth });
        any = true;
      }
    }
    return any;
  };
  walkFiltered(root, 0);
  return rows;
}

/** Every file's path under a node, in tree order. */
function* filePaths(node: TreeNode): Generator<string> {
  for (const child of node.children) {
    if (child.folder) yield* filePaths(child);
    else yield child.path;
  }
}

/** The folders that contain a path, outermost first. */
export function ancestorsOf(path: string): string[] {
  const parts = path.split('/');
  const out: string[] = [];
  for (let i = 1; i < parts.length; i++) out.push(parts.slice(0, i).join('/'));
  return out;
}
