import { useImperativeHandle, type Ref, type RefObject } from 'react';
import type { FirstMatch } from './firstMatch.js';
import type { TreeRow } from './treeModel.js';
import type { RowActions } from './useRowActions.js';

// Down or Enter in the filter: the first file shown (else the first folder) becomes the active,
// selected row, and the focus moves to the tree.

export function useFirstMatch(ref: Ref<FirstMatch> | undefined, rows: TreeRow[], actions: RowActions, tree: RefObject<HTMLDivElement | null>): void {
  useImperativeHandle(
    ref,
    () => ({
      focus() {
        const row = rows.find((r) => !r.node.folder && !r.node.placeholder) ?? rows.find((r) => !r.node.placeholder);
        if (!row) return false;
        actions.moveTo(rows.indexOf(row));
        tree.current?.focus();
        return true;
      },
    }),
    [rows, actions, tree],
  );
}
