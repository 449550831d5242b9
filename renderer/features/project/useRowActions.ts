import { useApp } from '../../stores/appStore.js';
import { placeholderPath } from './levelRows.js';
import type { TreeRow } from './treeModel.js';

// What a click, Enter or an arrow key does to a row of the file tree: a file is selected, a
// folder opens or closes, a level that could not be read is asked for again.

export interface RowActions {
  activate(row: TreeRow): void;
  /** Makes the row at `index` (clamped to the rows) active, and selects it if it is a file. */
  moveTo(index: number): void;
}

export function useRowActions(rows: TreeRow[], filtering: boolean, setActivePath: (path: string) => void): RowActions {
  const toggleFolder = useApp((s) => s.toggleFolder);
  const selectPath = useApp((s) => s.selectPath);
  const loadLevel = useApp((s) => s.loadLevel);
  const loadFileList = useApp((s) => s.loadFileList);

  function retry(row: TreeRow) {
    if (filtering) void loadFileList(true);
    else void loadLevel(row.node.path === placeholderPath('') ? '' : row.node.path.slice(0, -2));
  }

  return {
    activate(row) {
      setActivePath(row.node.path);
      if (row.node.placeholder === 'error') retry(row);
      else if (row.node.placeholder) return;
      else if (row.node.folder) toggleFolder(row.node.path);
      else selectPath(row.node.path);
    },
    moveTo(index) {
      const row = rows[Math.max(0, Math.min(rows.length - 1, index))];
      if (!row) return;
      setActivePath(row.node.path);
      if (!row.node.folder && !row.node.placeholder) selectPath(row.node.path);
    },
  };
}
