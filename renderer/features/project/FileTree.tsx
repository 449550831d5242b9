import { useEffect, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState, type Ref } from 'react';
import { useApp } from '../../stores/appStore.js';
import { NoFilesMatch } from './NoFilesMatch.js';
import type { FirstMatch } from './firstMatch.js';
import { levelRows, placeholderPath } from './levelRows.js';
import { ancestorsOf, buildTree, visibleRows, type TreeNode, type TreeRow } from './treeModel.js';
import { displayPath } from '../../../shared/fileNameBytes.js';

// The project's files as a tree (role tree), virtualized: only the rows in view (plus a few) are
// in the DOM, so 100,000 files scroll like 100. Focus stays on the tree; aria-activedescendant
// names the active row, and arrow keys move it the way a file manager does. Without a filter the
// rows come from the folder levels read so far (a "Loading…" row where one is being read); with
// one, from the whole list of paths, read the first time the filter is used.

const ROW = 24;
const OVERSCAN = 8;

export function FileTree({ firstMatch }: { firstMatch?: Ref<FirstMatch> }) {
  const levels = useApp((s) => s.levels);
  const allFiles = useApp((s) => s.allFiles);
  const fileListError = useApp((s) => s.fileListError);
  const deleted = useApp((s) => s.deleted);
  const changed = useApp((s) => s.changed);
  const showDeleted = useApp((s) => s.showDeleted);
  const expanded = useApp((s) => s.expanded);
  const filter = useApp((s) => s.filter);
  const selectedPath = useApp((s) => s.selectedPath);
  const toggleFolder = useApp((s) => s.toggleFolder);
  const selectPath = useApp((s) => s.selectPath);
  const loadLevel = useApp((s) => s.loadLevel);
  const loadFileList = useApp((s) => s.loadFileList);

  const filtering = filter.trim() !== '';
  const root = useMemo(
    () => (filtering && allFiles ? buildTree(allFiles, deleted, changed, showDeleted) : null),
    [filtering, allFiles, deleted, changed, showDeleted],
  );
  const rows = useMemo((): TreeRow[] => {
    if (!filtering) return levelRows(levels, expanded, showDeleted);
    if (root) return visibleRows(root, expanded, filter);
    const failed = fileListError !== null;
    const node: TreeNode = {
      name: failed ? `Could not list the files: ${fileListError.message}` : 'Loading…',
      path: placeholderPath(''),
      folder: false,
      deleted: false,
      changed: false,
      children: [],
      placeholder: failed ? 'error' : 'loading',
    };
    return [{ node, depth: 0 }];
  }, [filtering, levels, expanded, showDeleted, root, filter, fileListError]);
  const busy = rows.some((r) => r.node.placeholder === 'loading');

  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  const [activePath, setActivePath] = useState<string | null>(selectedPath);
  // With nothing matching the filter, a message stands where the tree was.
  const noMatch = rows.length === 0 && filtering;

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setHeight(el.clientHeight));
    observer.observe(el);
    setHeight(el.clientHeight);
    setScrollTop(el.scrollTop);
    return () => observer.disconnect();
  }, [noMatch]);

  // A selection made elsewhere (a test, the timeline) opens its folders and becomes active.
  useEffect(() => {
    if (!selectedPath) return;
    setActivePath(selectedPath);
    for (const folder of ancestorsOf(selectedPath)) toggleFolder(folder, true);
  }, [selectedPath, toggleFolder]);

  const activeIndex = useMemo(() => rows.findIndex((r) => r.node.path === activePath), [rows, activePath]);

  // Down or Enter in the filter: the first file shown becomes the active, selected row.
  useImperativeHandle(
    firstMatch,
    () => ({
      focus() {
        const row = rows.find((r) => !r.node.folder && !r.node.placeholder) ?? rows.find((r) => !r.node.placeholder);
        if (!row) return false;
        setActivePath(row.node.path);
        if (!row.node.folder) selectPath(row.node.path);
        scroller.current?.focus();
        return true;
      },
    }),
    [rows, selectPath],
  );

  // Keep the active row drawn and in view.
  useEffect(() => {
    const el = scroller.current;
    if (!el || activeIndex < 0) return;
    const top = activeIndex * ROW;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + ROW > el.scrollTop + el.clientHeight) el.scrollTop = top + ROW - el.clientHeight;
  }, [activeIndex]);

  const first = Math.max(0, Math.floor(scrollTop / ROW) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + height) / ROW) + OVERSCAN);
  const drawn = rows.slice(first, last);

  function activate(row: TreeRow) {
    setActivePath(row.node.path);
    // A level that could not be read is asked for again.
    if (row.node.placeholder === 'error') {
      if (filtering) void loadFileList(true);
      else void loadLevel(row.node.path === placeholderPath('') ? '' : row.node.path.slice(0, -2));
      return;
    }
    if (row.node.placeholder) return;
    if (row.node.folder) toggleFolder(row.node.path);
    else selectPath(row.node.path);
  }

  function moveTo(index: number) {
    const row = rows[Math.max(0, Math.min(rows.length - 1, index))];
    if (!row) return;
    setActivePath(row.node.path);
    if (!row.node.folder && !row.node.placeholder) selectPath(row.node.path);
  }

  function onKeyDown(event: React.KeyboardEvent) {
    const index = activeIndex < 0 ? -1 : activeIndex;
    const row = rows[index];
    const page = Math.max(1, Math.floor(height / ROW) - 1);
    switch (event.key) {
      case 'ArrowDown':
        moveTo(index + 1);
        break;
      case 'ArrowUp':
        moveTo(index < 0 ? 0 : index - 1);
        break;
      case 'PageDown':
        moveTo(index + page);
        break;
      case 'PageUp':
        moveTo(index - page);
        break;
      case 'Home':
        moveTo(0);
        break;
      case 'End':
        moveTo(rows.length - 1);
        break;
      case 'ArrowRight':
        if (!row?.node.folder) return;
        if (expanded.has(row.node.path) || filter) moveTo(index + 1);
        else toggleFolder(row.node.path, true);
        break;
      case 'ArrowLeft': {
        if (!row) return;
        if (row.node.folder && expanded.has(row.node.path) && !filter) {
          toggleFolder(row.node.path, false);
        } else {
          const parent = row.node.path.includes('/') ? row.node.path.slice(0, row.node.path.lastIndexOf('/')) : null;
          if (parent !== null) setActivePath(parent);
        }
        break;
      }
      case 'Enter':
      case ' ':
        if (row) activate(row);
        break;
      default:
        return;
    }
    event.preventDefault();
  }

  if (noMatch) return <NoFilesMatch filter={filter} />;

  return (
    <div
      ref={scroller}
      className="tree"
      role="tree"
      aria-label="Files"
      tabIndex={0}
      aria-activedescendant={activeIndex >= first && activeIndex < last ? rowId(activeIndex) : undefined}
      aria-busy={busy || undefined}
      onKeyDown={onKeyDown}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
    >
      <div className="tree-sizer" style={{ height: rows.length * ROW }}>
        {drawn.map((row, i) => {
          const index = first + i;
          const { node } = row;
          const open = node.folder && (expanded.has(node.path) || filter !== '');
          if (node.placeholder) {
            return (
              <div
                key={i}
                id={rowId(index)}
                role="treeitem"
                aria-level={row.depth + 1}
                aria-busy={node.placeholder === 'loading' || undefined}
                aria-selected={false}
                className={`tree-row tree-placeholder is-${node.placeholder}${index === activeIndex ? ' is-active' : ''}`}
                style={{ transform: `translateY(${index * ROW}px)`, paddingLeft: 8 + row.depth * 16 }}
                title={node.placeholder === 'error' ? 'Click or press Enter to try again' : undefined}
                onClick={() => activate(row)}
              >
                <span className="twisty twisty-none" aria-hidden="true" />
                <span className="tree-name">{node.name}</span>
              </div>
            );
          }
          const classes = ['tree-row'];
          if (node.path === selectedPath) classes.push('is-selected');
          if (index === activeIndex) classes.push('is-active');
          if (node.deleted) classes.push('is-deleted');
          return (
            <div
              // Keyed by slot, not by path: scrolling re-fills the same few DOM rows instead of
              // unmounting and mounting a viewport's worth of them every frame.
              key={i}
              id={rowId(index)}
              role="treeitem"
              aria-label={displayPath(node.name)}
              data-path={node.path}
              aria-level={row.depth + 1}
              aria-expanded={node.folder ? open : undefined}
              aria-selected={node.folder ? undefined : node.path === selectedPath}
              title={displayPath(node.path) + (node.deleted ? ' (deleted)' : '')}
              className={classes.join(' ')}
              style={{ transform: `translateY(${index * ROW}px)`, paddingLeft: 8 + row.depth * 16 }}
              onClick={() => activate(row)}
            >
              <span className={node.folder ? (open ? 'twisty twisty-open' : 'twisty') : 'twisty twisty-none'} aria-hidden="true" />
              <span className={node.folder ? 'tree-icon icon-folder' : 'tree-icon icon-file'} aria-hidden="true" />
              <span className="tree-name">{displayPath(node.name)}</span>
              {node.deleted && !node.folder && <span className="tag tag-deleted">deleted</span>}
              {node.changed && !node.deleted && <span className="changed-mark" title="Changed since the first copy" aria-hidden="true" />}
            </div>
          );
        })}
      </div>
    </div>
  );
}

function rowId(index: number): string {
  return `tree-row-${index}`;
}
