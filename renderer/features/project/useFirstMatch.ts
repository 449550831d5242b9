import { useImperativeHandle, type Ref, type RefObject } from 'react';
import type { FirstMatch } from './firstMatch.js';
import { bestMatch } from './matchRank.js';
import { useApp } from '../../stores/appStore.js';
import { shownRules } from '../../stores/shownRules.js';
import type { TreeRow } from './treeModel.js';
import type { RowActions } from './useRowActions.js';

// Down or Enter in the filter: the best match among the files shown (matchRank.ts: the name
// typed exactly, then one starting with it, then the first; else the first folder) becomes the
// active, selected row, and the focus moves to the tree.

export function useFirstMatch(
  ref: Ref<FirstMatch> | undefined,
  rows: TreeRow[],
  filter: string,
  actions: RowActions,
  tree: RefObject<HTMLDivElement | null>,
): void {
  const rules = useApp(shownRules);
  useImperativeHandle(
    ref,
    () => ({
      focus() {
        const best = bestMatch(
          filter,
          rows.map((r) => (r.node.folder || r.node.placeholder ? null : r.node.path)),
          rules,
        );
        const at = best >= 0 ? best : rows.findIndex((r) => !r.node.placeholder);
        if (at < 0) return false;
        actions.moveTo(at);
        tree.current?.focus();
        return true;
      },
    }),
    [rows, filter, actions, tree, rules],
  );
}
