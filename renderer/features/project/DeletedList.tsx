import { useImperativeHandle, useMemo, useRef, type Ref } from 'react';
import { EmptyState } from '../../components/EmptyState.js';
import { moveInList } from '../../components/listKeys.js';
import { formatCount } from '../../format/bytes.js';
import { formatExact } from '../../format/time.js';
import { RelativeTime } from '../../components/RelativeTime.js';
import { useApp } from '../../stores/appStore.js';
import { compileFilter } from './fileFilter.js';
import type { FirstMatch } from './firstMatch.js';
import { bestMatch } from './matchRank.js';
import { shownRules } from '../../stores/shownRules.js';
import { NoFilesMatch } from './NoFilesMatch.js';
import type { DeletedFile } from '../../../shared/contract.js';
import { displayPath } from '../../../shared/fileNameBytes.js';

// The files deleted since the first copy as one flat list, most recently deleted first, each
// with its folder and when it went: the quick way to find something to bring back. The filter
// applies here as in the tree. Choosing one shows its versions (the last one with contents is
// what a restore brings back).

/** More rows than this are not drawn at once: the filter narrows them. */
const MAX_ROWS = 2000;

export function DeletedList({ firstMatch }: { firstMatch?: Ref<FirstMatch> }) {
  const deleted = useApp((s) => s.deleted);
  const filter = useApp((s) => s.filter);
  const selectedPath = useApp((s) => s.selectedPath);
  const selectPath = useApp((s) => s.selectPath);
  const rules = useApp(shownRules);
  const list = useRef<HTMLUListElement>(null);

  const rows = useMemo(() => {
    const compiled = compileFilter(
      filter,
      deleted.map((d) => d.path),
    );
    const shown = compiled ? deleted.filter((d) => compiled.matches(d.path)) : deleted.slice();
    return shown.sort((a, b) => b.deletion.at - a.deletion.at || (a.path < b.path ? -1 : 1));
  }, [deleted, filter]);
  const drawn = rows.slice(0, MAX_ROWS);

  useImperativeHandle(
    firstMatch,
    () => ({
      focus() {
        // The best match (matchRank.ts), not simply the newest deletion.
        const at = bestMatch(
          filter,
          drawn.map((d) => d.path),
          rules,
        );
        if (at < 0) return false;
        selectPath(drawn[at]!.path);
        list.current?.querySelector<HTMLElement>(`[data-index="${at}"]`)?.focus();
        return true;
      },
    }),
    [drawn, filter, selectPath, rules],
  );

  if (deleted.length === 0) {
    return <EmptyState title="No deleted files">Files deleted from the folder after its first copy are listed here, ready to bring back.</EmptyState>;
  }
  if (rows.length === 0) return <NoFilesMatch filter={filter} deleted />;

  const selectedIndex = drawn.findIndex((d) => d.path === selectedPath);
  return (
    <>
      <ul
        ref={list}
        className="deleted-list"
        aria-label="Deleted files"
        onKeyDown={(e) =>
          moveInList(
            e,
            drawn.map((_, i) => i),
            selectedIndex < 0 ? null : selectedIndex,
            (i) => selectPath(drawn[i]!.path),
            'data-index',
          )
        }
      >
        {drawn.map((d, i) => (
          <DeletedRow
            key={d.path}
            file={d}
            index={i}
            selected={d.path === selectedPath}
            tabbable={d.path === selectedPath || (selectedIndex < 0 && i === 0)}
            onSelect={selectPath}
          />
        ))}
      </ul>
      {rows.length > drawn.length && (
        <p className="notice">
          Showing {formatCount(drawn.length)} of {formatCount(rows.length)}: filter to find the others.
        </p>
      )}
    </>
  );
}

interface DeletedRowProps {
  file: DeletedFile;
  index: number;
  selected: boolean;
  /** The list's one tab stop: the selected row, else the first. */
  tabbable: boolean;
  onSelect: (path: string) => void;
}

/** One deleted file: its name, its folder and when it went. */
function DeletedRow({ file: d, index: i, selected, tabbable, onSelect }: DeletedRowProps) {
  const slash = d.path.lastIndexOf('/');
  return (
    <li>
      <button
        type="button"
        data-index={i}
        className={selected ? 'deleted-row is-selected' : 'deleted-row'}
        aria-current={selected ? 'true' : undefined}
        tabIndex={tabbable ? 0 : -1}
        title={displayPath(d.path)}
        onClick={() => onSelect(d.path)}
      >
        <span className="deleted-name">{displayPath(d.path.slice(slash + 1))}</span>
        <span className="deleted-folder">{slash < 0 ? 'top folder' : <bdi dir="ltr">{displayPath(d.path.slice(0, slash))}</bdi>}</span>
        <RelativeTime className="deleted-when" at={d.deletion.at} prefix="deleted " title={`Deleted ${formatExact(d.deletion.at)}`} />
      </button>
    </li>
  );
}
