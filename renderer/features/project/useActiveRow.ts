import { useEffect, useMemo, useState } from 'react';
import { useApp } from '../../stores/appStore.js';
import { ancestorsOf, type TreeRow } from './treeModel.js';

// The file tree's active row (the one aria-activedescendant names and the arrow keys move), kept
// by path so it stays on its file when rows above it open or close.

export function useActiveRow(rows: TreeRow[]): { activeIndex: number; setActivePath: (path: string) => void } {
  const selectedPath = useApp((s) => s.selectedPath);
  const toggleFolder = useApp((s) => s.toggleFolder);
  const [activePath, setActivePath] = useState<string | null>(selectedPath);

  // A selection made elsewhere (a test, the timeline) opens its folders and becomes active.
  useEffect(() => {
    if (!selectedPath) return;
    setActivePath(selectedPath);
    for (const folder of ancestorsOf(selectedPath)) toggleFolder(folder, true);
  }, [selectedPath, toggleFolder]);

  const activeIndex = useMemo(() => rows.findIndex((r) => r.node.path === activePath), [rows, activePath]);
  return { activeIndex, setActivePath };
}
