import { useMemo } from 'react';
import type { SearchMatch } from '../../../shared/contract.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { formatCount } from '../../format/bytes.js';
import { formatExact, formatRelative } from '../../format/time.js';
import { useApp } from '../../stores/appStore.js';
import { shortcutLabel } from '../shortcuts.js';
import { displayPath } from '../../../shared/fileNameBytes.js';
import { groupByFile, type HitRow } from './searchGroups.js';
import { SearchUnreadable } from './SearchUnreadable.js';

// Searching every version of the project: the box in the project's header (Ctrl/Cmd+Shift+F) and
// the results, grouped by file: for each content that held the text, how many versions held it,
// when it was first and last seen, its lines; a click opens that version with the match marked,
// and text no longer in the current file is marked gone, with a compare against the current file.
// The versions it could not read are said under the summary (SearchUnreadable.tsx).

const MATCHES_SHOWN = 5;

export function SearchBox() {
  const query = useApp((s) => s.searchQuery);
  const regex = useApp((s) => s.searchRegex);
  const caseSensitive = useApp((s) => s.searchCase);
  const setQuery = useApp((s) => s.setSearchQuery);
  const setRegex = useApp((s) => s.setSearchRegex);
  const setCase = useApp((s) => s.setSearchCase);
  const runSearch = useApp((s) => s.runSearch);
  return (
    <form
      className="history-search"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        void runSearch();
      }}
    >
      <input
        id="history-search"
        type="search"
        className="input"
        aria-label="Search history"
        placeholder={`Search history (${shortcutLabel('Shift+F')})`}
        title="Text in any version ever recorded. Enter searches."
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      <div className="segmented" role="group" aria-label="Search options">
        <button type="button" aria-pressed={regex} title="Regular expression" aria-label="Regular expression" onClick={() => setRegex(!regex)}>
          .*
        </button>
        <button type="button" aria-pressed={caseSensitive} title="Match case" aria-label="Match case" onClick={() => setCase(!caseSensitive)}>
          Aa
        </button>
      </div>
    </form>
  );
}

const versionsWord = (n: number) => (n === 1 ? '1 version' : `${formatCount(n)} versions`);

export function SearchView() {
  const status = useApp((s) => s.searchStatus);
  const result = useApp((s) => s.searchResult);
  const error = useApp((s) => s.searchError);
  const searched = useApp((s) => s.searched);
  const groups = useMemo(() => groupByFile(result?.results ?? []), [result]);
  if (status === 'error' && error)
    return (
      <div className="search-view">
        <ErrorNote error={error} title="The search could not be made" />
      </div>
    );
  if (status === 'idle') {
    return (
      <div className="search-view">
        <EmptyState title="Search every version">
          Type a text in the Search history box and press Enter: every version ever recorded is searched, deleted files included.
        </EmptyState>
      </div>
    );
  }
  if (!result || !searched)
    return (
      <div className="search-view">
        <p className="loading">Searching…</p>
      </div>
    );
  const { index } = result;
  const how = !result.indexed
    ? 'Every version was read (the query has no 3 characters of plain text for the index).'
    : index.done
      ? 'Searched the index of every version.'
      : `The index covers ${formatCount(index.indexedBlobs)} of ${formatCount(index.totalBlobs)} contents so far; the rest were read.`;
  return (
    <div className="search-view" aria-busy={status === 'searching'}>
      <p className="search-summary" role="status">
        {result.results.length === 0
          ? `No version ${result.unreadable.versions > 0 ? 'read ' : ''}holds “${searched.query}”.`
          : `“${searched.query}” in ${groups.length === 1 ? '1 file' : `${formatCount(groups.length)} files`}${result.truncated ? ' (the newest hits only)' : ''}.`}{' '}
        <span className="muted">{how}</span>
      </p>
      <SearchUnreadable unreadable={result.unreadable} />
      <ul className="search-files" aria-label="Search results">
        {groups.map((group) => (
          <li key={group.path} className="search-file">
            <h3 className="search-file-path" title={displayPath(group.path)}>
              {displayPath(group.path)}
            </h3>
            <p className="search-file-meta">
              {versionsWord(group.versions)} · first seen {formatRelative(group.firstSeen)} · last seen {formatRelative(group.lastSeen)}
            </p>
            {group.rows.map((row) => (
              <HitView key={row.hit.versions[0]!.versionId} row={row} />
            ))}
          </li>
        ))}
      </ul>
    </div>
  );
}

function HitView({ row }: { row: HitRow }) {
  const openSearchHit = useApp((s) => s.openSearchHit);
  const { hit } = row;
  const newest = hit.versions[0]!;
  // One row per line: a line with the text twice is one place to look.
  const lines = hit.matches.filter((m, i) => i === 0 || hit.matches[i - 1]!.line !== m.line);
  const extra = lines.length - MATCHES_SHOWN;
  return (
    <div className="search-hit">
      <div className="search-hit-meta">
        <span
          title={`${formatExact(row.firstSeen)} – ${formatExact(row.lastSeen)}${row.folded > 1 ? ` · the same lines in ${formatCount(row.folded)} contents of the file` : ''}`}
        >
          {versionsWord(row.versions)},{' '}
          {row.firstSeen === row.lastSeen ? formatRelative(row.lastSeen) : `${formatRelative(row.firstSeen)} – ${formatRelative(row.lastSeen)}`}
        </span>
        {!row.stillPresent && (
          <>
            <span className="badge badge-gone" title="The current file no longer holds this text (or the file was deleted)">
              gone
            </span>
            <button
              type="button"
              className="link-button"
              onClick={() => void openSearchHit(hit, hit.matches[0], true)}
              aria-label={`Compare ${displayPath(hit.path)} as it held the text with the current file`}
            >
              Compare with current file
            </button>
          </>
        )}
      </div>
      <ul className="search-matches">
        {lines.slice(0, MATCHES_SHOWN).map((match) => (
          <li key={`${match.line}:${match.column}`}>
            <button
              type="button"
              className="search-match"
              onClick={() => void openSearchHit(hit, match)}
              aria-label={`Open ${displayPath(hit.path)} line ${match.line} in the version of ${formatExact(newest.at)}`}
            >
              <span className="search-line">{match.line}</span>
              <MatchPreview match={match} />
            </button>
          </li>
        ))}
      </ul>
      {extra > 0 && <p className="muted search-more">and {extra === 1 ? '1 more line' : `${formatCount(extra)} more lines`} in this version</p>}
    </div>
  );
}

/** The preview line with the matched text marked: the range the search found, as it reported it. */
function MatchPreview({ match }: { match: SearchMatch }) {
  const { preview, previewFrom, previewTo } = match;
  const parts = previewTo > previewFrom ? [preview.slice(0, previewFrom), preview.slice(previewFrom, previewTo), preview.slice(previewTo)] : null;
  if (!parts) return <code className="search-preview">{match.preview}</code>;
  return (
    <code className="search-preview">
      {parts[0]}
      <mark>{parts[1]}</mark>
      {parts[2]}
    </code>
  );
}
