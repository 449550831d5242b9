import { EmptyState } from '../../components/EmptyState.js';

// What the file list says when the filter leaves nothing, instead of a blank pane.

export function NoFilesMatch({ filter, deleted = false }: { filter: string; deleted?: boolean }) {
  return (
    <div role="status">
      <EmptyState title={`No ${deleted ? 'deleted ' : ''}files match “${filter.trim()}”`}>
        Type part of a path, letters in order (<code>addc</code> finds <code>add.c</code>), or a pattern such as <code>*.h</code> or <code>src/**/*.c</code>.
      </EmptyState>
    </div>
  );
}
