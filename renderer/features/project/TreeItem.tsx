import { displayPath } from '../../../shared/fileNameBytes.js';
import { ROW, rowId } from './treeGeometry.js';
import type { TreeRow } from './treeModel.js';

// One drawn row of the file tree: a file or a folder (role treeitem, named by its file name), or
// a placeholder where a level is being read or could not be.

export interface TreeItemProps {
  row: TreeRow;
  index: number;
  active: boolean;
  selected: boolean;
  /** A folder shown open (expanded, or any folder while filtering). */
  open: boolean;
  onActivate(row: TreeRow): void;
}

export function TreeItem(props: TreeItemProps) {
  return props.row.node.placeholder ? <PlaceholderItem {...props} /> : <PathItem {...props} />;
}

function placement(row: TreeRow, index: number): React.CSSProperties {
  return { transform: `translateY(${index * ROW}px)`, paddingLeft: 8 + row.depth * 16 };
}

function PlaceholderItem({ row, index, active, onActivate }: TreeItemProps) {
  const { node } = row;
  return (
    <div
      id={rowId(index)}
      role="treeitem"
      aria-level={row.depth + 1}
      aria-busy={node.placeholder === 'loading' || undefined}
      aria-selected={false}
      className={`tree-row tree-placeholder is-${node.placeholder}${active ? ' is-active' : ''}`}
      style={placement(row, index)}
      title={node.placeholder === 'error' ? 'Click or press Enter to try again' : undefined}
      onClick={() => onActivate(row)}
    >
      <span className="twisty twisty-none" aria-hidden="true" />
      <span className="tree-name">{node.name}</span>
    </div>
  );
}

function PathItem({ row, index, active, selected, open, onActivate }: TreeItemProps) {
  const { node } = row;
  const classes = ['tree-row'];
  if (selected) classes.push('is-selected');
  if (active) classes.push('is-active');
  if (node.deleted) classes.push('is-deleted');
  return (
    <div
      id={rowId(index)}
      role="treeitem"
      aria-label={displayPath(node.name)}
      data-path={node.path}
      aria-level={row.depth + 1}
      aria-expanded={node.folder ? open : undefined}
      aria-selected={node.folder ? undefined : selected}
      title={displayPath(node.path) + (node.deleted ? ' (deleted)' : '')}
      className={classes.join(' ')}
      style={placement(row, index)}
      onClick={() => onActivate(row)}
    >
      <span className={node.folder ? (open ? 'twisty twisty-open' : 'twisty') : 'twisty twisty-none'} aria-hidden="true" />
      <span className={node.folder ? 'tree-icon icon-folder' : 'tree-icon icon-file'} aria-hidden="true" />
      <span className="tree-name">{displayPath(node.name)}</span>
      {node.deleted && !node.folder && <span className="tag tag-deleted">deleted</span>}
      {node.changed && !node.deleted && <span className="changed-mark" title="Changed since the first copy" aria-hidden="true" />}
    </div>
  );
}
