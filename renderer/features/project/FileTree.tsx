import type { Ref } from 'react';
import { useApp } from '../../stores/appStore.js';
import { DrawnRows } from './DrawnRows.js';
import { NoFilesMatch } from './NoFilesMatch.js';
import type { FirstMatch } from './firstMatch.js';
import { rowId } from './treeGeometry.js';
import { useActiveRow } from './useActiveRow.js';
import { useFirstMatch } from './useFirstMatch.js';
import { useRowActions } from './useRowActions.js';
import { useTreeKeys } from './useTreeKeys.js';
import { useTreeRows } from './useTreeRows.js';
import { useTreeViewport } from './useTreeViewport.js';

// The project's files as a tree (role tree), virtualized: only the rows in view (plus a few) are
// in the DOM, so 100,000 files scroll like 100. Focus stays on the tree; aria-activedescendant
// names the active row, and arrow keys move it the way a file manager does. The rows
// (useTreeRows.ts), the active row (useActiveRow.ts), scrolling (useTreeViewport.ts), what acting
// on a row does (useRowActions.ts), the keys (useTreeKeys.ts) and the rows drawn (DrawnRows.tsx)
// are each in their own file.

export function FileTree({ firstMatch }: { firstMatch?: Ref<FirstMatch> }) {
  const filter = useApp((s) => s.filter);
  const { rows, filtering } = useTreeRows();
  const { activeIndex, setActivePath } = useActiveRow(rows);
  // With nothing matching the filter, a message stands where the tree was.
  const noMatch = rows.length === 0 && filtering;
  const { scroller, height, setScrollTop, first, last } = useTreeViewport(rows.length, activeIndex, noMatch);
  const actions = useRowActions(rows, filtering, setActivePath);
  useFirstMatch(firstMatch, rows, filter, actions, scroller);
  const onKeyDown = useTreeKeys({ rows, activeIndex, height, actions, setActivePath });

  if (noMatch) return <NoFilesMatch filter={filter} />;

  return (
    <div
      ref={scroller}
      className="tree"
      role="tree"
      aria-label="Files"
      tabIndex={0}
      aria-activedescendant={activeIndex >= first && activeIndex < last ? rowId(activeIndex) : undefined}
      aria-busy={rows.some((r) => r.node.placeholder === 'loading') || undefined}
      onKeyDown={onKeyDown}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
    >
      <DrawnRows rows={rows} first={first} last={last} activeIndex={activeIndex} onActivate={actions.activate} />
    </div>
  );
}
