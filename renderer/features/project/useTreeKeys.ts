import { useApp } from '../../stores/appStore.js';
import { pageRows } from './treeGeometry.js';
import { moveTarget, parentOf } from './treeKeys.js';
import type { TreeRow } from './treeModel.js';
import type { RowActions } from './useRowActions.js';

// The file tree's keyboard: arrows, Page Up/Down, Home and End move the active row; Right opens
// a folder (or steps into an open one), Left closes it (or steps out to its folder); Enter and
// Space act as a click. With a filter every folder shown is open, and stays so.

interface TreeKeys {
  rows: TreeRow[];
  activeIndex: number;
  height: number;
  actions: RowActions;
  setActivePath(path: string): void;
}

export function useTreeKeys({ rows, activeIndex, height, actions, setActivePath }: TreeKeys): (event: React.KeyboardEvent) => void {
  const expanded = useApp((s) => s.expanded);
  const filter = useApp((s) => s.filter);
  const toggleFolder = useApp((s) => s.toggleFolder);

  /** Right: opens a closed folder, else steps to the row below. False where it does nothing. */
  function openOrStepIn(row: TreeRow | undefined): boolean {
    if (!row?.node.folder) return false;
    if (expanded.has(row.node.path) || filter) actions.moveTo(activeIndex + 1);
    else toggleFolder(row.node.path, true);
    return true;
  }

  /** Left: closes an open folder, else steps out to the folder holding the row. */
  function closeOrStepOut(row: TreeRow | undefined): boolean {
    if (!row) return false;
    const parent = parentOf(row.node.path);
    if (row.node.folder && expanded.has(row.node.path) && !filter) toggleFolder(row.node.path, false);
    else if (parent !== null) setActivePath(parent);
    return true;
  }

  function handled(key: string, row: TreeRow | undefined): boolean {
    const target = moveTarget(key, activeIndex, rows.length, pageRows(height));
    if (target !== undefined) actions.moveTo(target);
    else if (key === 'ArrowRight') return openOrStepIn(row);
    else if (key === 'ArrowLeft') return closeOrStepOut(row);
    else if (key === 'Enter' || key === ' ') {
      if (row) actions.activate(row);
    } else return false;
    return true;
  }

  return (event) => {
    if (handled(event.key, rows[activeIndex])) event.preventDefault();
  };
}
