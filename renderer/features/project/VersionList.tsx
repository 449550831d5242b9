import { useEffect, useRef } from 'react';
import type { VersionInfo } from '../../../shared/contract.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { formatBytes } from '../../format/bytes.js';
import { formatExact, formatRelative } from '../../format/time.js';
import { useApp } from '../../stores/appStore.js';
import { moveInList } from '../../components/listKeys.js';

// The selected file's versions, newest first; the oldest is the baseline. Arrow keys move the
// selection (each item is a button; focus and selection move together). A long history comes a
// page at a time: the next older page loads when the end of the list scrolls into view (or on
// its button).

export function VersionList() {
  const versions = useApp((s) => s.versions);
  const status = useApp((s) => s.versionsStatus);
  const error = useApp((s) => s.versionsError);
  const path = useApp((s) => s.versionsPath);
  const selected = useApp((s) => s.selectedVersionId);
  const selectVersion = useApp((s) => s.selectVersion);
  const more = useApp((s) => s.versionsMore);

  if (!path) return <EmptyState title="No file selected">Choose a file to see its versions.</EmptyState>;
  if (status === 'error' && error) return <ErrorNote error={error} title="The versions could not be read" />;

  function onKeyDown(event: React.KeyboardEvent<HTMLUListElement>) {
    moveInList(event, versions.map((v) => v.versionId), selected, selectVersion, 'data-version');
  }

  return (
    <ul className="version-list" aria-label="Versions" aria-busy={status === 'loading'} data-path={path} onKeyDown={onKeyDown}>
      {versions.map((v, i) => (
        <li key={v.versionId}>
          <button
            type="button"
            data-version={v.versionId}
            className={v.versionId === selected ? 'version is-selected' : 'version'}
            aria-current={v.versionId === selected ? 'true' : undefined}
            tabIndex={v.versionId === selected || (selected === null && i === 0) ? 0 : -1}
            onClick={() => selectVersion(v.versionId)}
          >
            <span className="version-head">
              <span className={`version-kind kind-${v.hash === null ? 'deleted' : v.kind}`}>{versionTitle(v, !more && i === versions.length - 1)}</span>
              <time className="version-relative" dateTime={new Date(v.at).toISOString()} title={formatExact(v.at)}>
                {formatRelative(v.at)}
              </time>
            </span>
            <span className="version-meta">
              <span className="version-exact">{formatExact(v.at)}</span>
              <span>{v.hash === null ? '—' : formatBytes(v.size)}</span>
            </span>
          </button>
        </li>
      ))}
      {more && (
        <li className="version-more">
          <OlderVersions />
        </li>
      )}
    </ul>
  );
}

/** The button at the end of a long list; it presses itself when it scrolls into view. */
function OlderVersions() {
  const loading = useApp((s) => s.loadingOlder);
  const loadOlder = useApp((s) => s.loadOlderVersions);
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void loadOlder();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [loadOlder]);
  return (
    <button ref={ref} type="button" className="button button-small" disabled={loading} onClick={() => void loadOlder()}>
      {loading ? 'Loading older versions…' : 'Show older versions'}
    </button>
  );
}

function versionTitle(v: VersionInfo, oldest: boolean): string {
  if (v.hash === null) return 'Deleted';
  if (oldest && v.kind === 'baseline') return 'Baseline';
  switch (v.kind) {
    case 'baseline':
      return 'Baseline';
    case 'restore':
      return 'Restored';
    case 'checkpoint':
      return 'Checkpoint';
    default:
      return oldest ? 'Added' : 'Edited';
  }
}
