import { useMemo } from 'react';
import type { HindsightErrorData } from '../../../shared/errors.js';
import { useApp } from '../../stores/appStore.js';
import { levelRows, placeholderPath } from './levelRows.js';
import { buildTree, visibleRows, type TreeNode, type TreeRow } from './treeModel.js';

// The rows the file tree shows. Without a filter they come from the folder levels read so far (a
// "Loading…" row where one is being read); with one, from the whole list of paths, read the
// first time the filter is used (one "Loading…" or error row until it is there).

export function useTreeRows(): { rows: TreeRow[]; filtering: boolean } {
  const levels = useApp((s) => s.levels);
  const allFiles = useApp((s) => s.allFiles);
  const fileListError = useApp((s) => s.fileListError);
  const deleted = useApp((s) => s.deleted);
  const changed = useApp((s) => s.changed);
  const showDeleted = useApp((s) => s.showDeleted);
  const expanded = useApp((s) => s.expanded);
  const filter = useApp((s) => s.filter);

  const filtering = filter.trim() !== '';
  const root = useMemo(
    () => (filtering && allFiles ? buildTree(allFiles, deleted, changed, showDeleted) : null),
    [filtering, allFiles, deleted, changed, showDeleted],
  );
  const rows = useMemo((): TreeRow[] => {
    if (!filtering) return levelRows(levels, expanded, showDeleted);
    if (root) return visibleRows(root, expanded, filter);
    return [{ node: fileListPlaceholder(fileListError), depth: 0 }];
  }, [filtering, levels, expanded, showDeleted, root, filter, fileListError]);
  return { rows, filtering };
}

/** The one row shown while the whole list of paths is read, or why it could not be. */
function fileListPlaceholder(error: HindsightErrorData | null): TreeNode {
  return {
    name: error ? `Could not list the files: ${error.message}` : 'Loading…',
    path: placeholderPath(''),
    folder: false,
    deleted: false,
    changed: false,
    children: [],
    placeholder: error ? 'error' : 'loading',
  };
}
