import { useApp } from '../../stores/appStore.js';
import { TreeItem } from './TreeItem.js';
import { ROW } from './treeGeometry.js';
import type { TreeRow } from './treeModel.js';

// The file tree's rows in view, [first, last), placed in a sizer as tall as every row: the
// scrollbar is the whole tree's, the DOM holds only what shows.

interface DrawnRowsProps {
  rows: TreeRow[];
  first: number;
  last: number;
  activeIndex: number;
  onActivate(row: TreeRow): void;
}

export function DrawnRows({ rows, first, last, activeIndex, onActivate }: DrawnRowsProps) {
  const expanded = useApp((s) => s.expanded);
  const filter = useApp((s) => s.filter);
  const selectedPath = useApp((s) => s.selectedPath);
  return (
    <div className="tree-sizer" style={{ height: rows.length * ROW }}>
      {rows.slice(first, last).map((row, i) => (
        <TreeItem
          // Keyed by slot, not by path: scrolling re-fills the same few DOM rows instead of
          // unmounting and mounting a viewport's worth of them every frame.
          key={i}
          row={row}
          index={first + i}
          active={first + i === activeIndex}
          selected={row.node.path === selectedPath}
          open={row.node.folder && (expanded.has(row.node.path) || filter !== '')}
          onActivate={onActivate}
        />
      ))}
    </div>
  );
}
