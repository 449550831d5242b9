import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { LineVersion } from '../../../shared/contract.js';
import type { LineChange } from '../../../shared/history.js';
import { terminatorLength } from '../../../shared/diff/splitLines.js';
import { displayPath } from '../../../shared/fileNameBytes.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { moveInList } from '../../components/listKeys.js';
import { RelativeTime } from '../../components/RelativeTime.js';
import { baseName } from '../../format/fileKind.js';
import { versionName } from '../../format/versionName.js';
import { useApp } from '../../stores/appStore.js';
import type { LineHistory } from '../../stores/lineHistorySlice.js';
import { numberOfVersion } from '../../stores/versionNumbers.js';
import { spanWords } from './LineHistoryButton.js';

// The History for selection panel, below the version's text (which keeps its selection): the
// versions that changed the lines, newest first (Up/Down/Home/End move among them), and the change
// of the one chosen, limited to those lines, with "Restore this change". Escape closes it and
// gives the keyboard back to the text.

export function LineHistoryPanel({ path, versionId }: { path: string; versionId: number }) {
  const history = useApp((s) => s.lineHistory);
  const close = useApp((s) => s.closeLineHistory);
  const projectId = useApp((s) => s.currentProjectId);
  const panel = useRef<HTMLElement>(null);
  const shown = history !== null && history.projectId === projectId && history.path === path && history.versionId === versionId;
  // Each new request takes the keyboard to the panel; its list takes it once it has arrived.
  useEffect(() => {
    if (shown) panel.current?.focus();
  }, [shown, history?.from, history?.to]);
  if (!shown) return null;
  const what = `${spanWords(history.from, history.to)} of ${displayPath(baseName(path))}`;
  function closeToText() {
    close();
    backToText();
  }
  function onKeyDown(event: KeyboardEvent) {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    closeToText();
  }
  return (
    <section ref={panel} className="line-history" aria-label={`History for ${what}`} tabIndex={-1} onKeyDown={onKeyDown}>
      <header className="line-history-head">
        <h3 className="line-history-title">History for {what}</h3>
        {history.status === 'ready' && <span className="toolbar-note">{countWords(history.entries.length)}</span>}
        <button type="button" className="button button-small" aria-label="Close the history for selection" title="Close (Escape)" onClick={closeToText}>
          Close
        </button>
      </header>
      <PanelBody history={history} panel={panel} />
    </section>
  );
}

function PanelBody({ history, panel }: { history: LineHistory; panel: React.RefObject<HTMLElement | null> }) {
  if (history.status === 'loading')
    return (
      <p className="loading" role="status">
        Finding the versions that changed these lines…
      </p>
    );
  if (history.status === 'error' && history.error) return <ErrorNote error={history.error} title="The history of these lines could not be read" />;
  if (history.entries.length === 0) return <EmptyState title="No version changed these lines">They are as the file's first version held them.</EmptyState>;
  return <Entries history={history} panel={panel} />;
}

function Entries({ history, panel }: { history: LineHistory; panel: React.RefObject<HTMLElement | null> }) {
  const [chosen, setChosen] = useState<number | null>(null);
  const versions = useApp((s) => s.versions);
  const versionsMore = useApp((s) => s.versionsMore);
  const disk = useApp((s) => s.disk);
  const numberOf = (id: number) => numberOfVersion({ versions, versionsMore, disk }, id);
  const list = useRef<HTMLUListElement>(null);
  const entries = history.entries;
  const active = entries.find((e) => e.versionId === chosen) ?? entries[0]!;
  const ids = entries.map((e) => e.versionId);
  // The list takes the keyboard from the panel when it arrives (not from anywhere else).
  useEffect(() => {
    if (document.activeElement === panel.current) list.current?.querySelector<HTMLElement>('[tabindex="0"]')?.focus();
  }, [panel]);
  return (
    <div className="line-history-body">
      <ul
        ref={list}
        className="line-history-list"
        aria-label="Versions that changed these lines"
        onKeyDown={(e) => moveInList(e, ids, active.versionId, setChosen, 'data-line-version')}
      >
        {entries.map((entry) => (
          <li key={entry.versionId}>
            <button
              type="button"
              data-line-version={entry.versionId}
              className={entry === active ? 'line-version is-selected' : 'line-version'}
              aria-current={entry === active ? 'true' : undefined}
              tabIndex={entry === active ? 0 : -1}
              onClick={() => setChosen(entry.versionId)}
            >
              <span className="line-version-name">{versionName(numberOf(entry.versionId), entry.at)}</span>
              <RelativeTime className="line-version-time" at={entry.at} />
              <span className="line-version-lines">{whereWords(entry)}</span>
            </button>
          </li>
        ))}
      </ul>
      <EntryChange entry={active} name={versionName(numberOf(active.versionId), active.at)} />
    </div>
  );
}

function EntryChange({ entry, name }: { entry: LineVersion; name: string }) {
  const restore = useApp((s) => s.restoreLineChange);
  const restoring = useApp((s) => s.restoring);
  return (
    <div className="line-history-change" role="group" aria-label={`What ${name} changed in these lines`}>
      <div className="line-history-actions">
        <span className="line-history-change-title">{name}</span>
        <button
          type="button"
          className="button button-small"
          disabled={restoring}
          title={`Write ${spanWords(entry.lines.from, entry.lines.to)} back into the current file as ${name} left them (recorded first, undoable)`}
          onClick={() => void restore(entry.versionId)}
        >
          Restore this change
        </button>
      </div>
      {entry.changes.map((change) => (
        <ChangeLines key={`${change.beforeLine}:${change.afterLine}`} change={change} />
      ))}
    </div>
  );
}

function ChangeLines({ change }: { change: LineChange }) {
  return (
    <pre className="line-history-diff">
      {change.removed.map((line, i) => (
        <span key={`r${i}`} className="line-removed">
          <span className="line-number">{change.beforeLine + i}</span>
          {'− '}
          {withoutTerminator(line)}
        </span>
      ))}
      {change.added.map((line, i) => (
        <span key={`a${i}`} className="line-added">
          <span className="line-number">{change.afterLine + i}</span>
          {'+ '}
          {withoutTerminator(line)}
        </span>
      ))}
    </pre>
  );
}

function withoutTerminator(line: string): string {
  return `${line.slice(0, line.length - terminatorLength(line))}\n`;
}

/** Where the lines were in that version, and before it. */
function whereWords(entry: LineVersion): string {
  const now = spanWords(entry.lines.from, entry.lines.to);
  if (entry.linesBefore === null) return `${now}, added here`;
  const { from, to } = entry.linesBefore;
  return from === entry.lines.from && to === entry.lines.to ? now : `${now}, were ${from === to ? from : `${from}–${to}`}`;
}

function countWords(count: number): string {
  return count === 1 ? '1 version changed them' : `${count} versions changed them`;
}

/** The version's text, where the selection still is. */
function backToText(): void {
  const text = document.querySelector('.content-body .code-view')?.shadowRoot?.querySelector<HTMLElement>('.cm-content');
  (text ?? document.querySelector<HTMLElement>('.content-body'))?.focus();
}
