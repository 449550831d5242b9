import { Fragment, useEffect, useMemo } from 'react';
import type { SnapshotChange, SnapshotInfo, SnapshotSummary } from '../../../shared/contract.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { formatCount } from '../../format/bytes.js';
import { formatExact } from '../../format/time.js';
import { PinMark } from '../../components/PinMark.js';
import { restoreLabel } from '../../format/snapshotName.js';
import { RelativeTime } from '../../components/RelativeTime.js';
import { useApp } from '../../stores/appStore.js';
import { OpenAsFolderDialog } from './OpenAsFolderDialog.js';
import { RestoreSnapshotDialog } from './RestoreSnapshotDialog.js';
import { UndoRestoreDialog } from './UndoRestoreDialog.js';
import { moveInList } from '../../components/listKeys.js';
import { PinToggle } from '../../components/PinToggle.js';
import { thinningMarks } from './thinningMarks.js';
import { TimelineScrubber } from './TimelineScrubber.js';
import { displayPath } from '../../../shared/fileNameBytes.js';

// Every snapshot of the project, newest first, named by what happened (the git operation, the
// restore, "3 files in src/"), with where the retention policy starts thinning, and what the
// selected one changed (with its pin): each file opens its diff at that snapshot. A checkpoint
// says what it holds, not "0 files". A restore's entry offers "Undo this restore" at any time.

export function TimelineView() {
  const loadTimeline = useApp((s) => s.loadTimeline);
  const status = useApp((s) => s.timelineStatus);
  const error = useApp((s) => s.timelineError);
  const loadRetention = useApp((s) => s.loadRetention);
  useEffect(() => {
    void loadTimeline();
    void loadRetention();
  }, [loadTimeline, loadRetention]);
  if (status === 'error' && error) return <ErrorNote error={error} title="The timeline could not be read" />;
  return (
    <div className="timeline-view">
      <section className="pane snapshots-pane" aria-label="Timeline">
        <div className="scrubbed-list">
          <TimelineScrubber />
          <SnapshotList />
        </div>
      </section>
      <SnapshotDetail />
      <RestoreSnapshotDialog />
      <UndoRestoreDialog />
      <OpenAsFolderDialog />
    </div>
  );
}

/** The title of a snapshot row; `snapshotAt` names the snapshot a restore brought back by its time. */
export function snapshotTitle(
  s: Pick<SnapshotInfo, 'kind' | 'label' | 'files' | 'scope'>,
  snapshotAt: (snapshotId: number) => { at: number } | undefined = atOf,
): string {
  switch (s.kind) {
    case 'baseline':
      return 'First copy';
    case 'checkpoint':
      return s.label ? `Checkpoint: ${s.label}` : 'Checkpoint';
    case 'restore':
      return s.label ? restoreLabel(s.label, snapshotAt) : 'Restore';
    default:
      return s.label ?? whereFiles(s);
  }
}

/** A snapshot of the open project's Timeline, when it has been read. */
function atOf(snapshotId: number): { at: number } | undefined {
  return useApp.getState().snapshots.find((s) => s.snapshotId === snapshotId);
}

/** "src/app.ts", "3 files in src/", "12 files": where a snapshot's files are. */
export function whereFiles(s: Pick<SnapshotInfo, 'files' | 'scope'>): string {
  const count = s.files === 1 ? '1 file' : `${formatCount(s.files)} files`;
  if (s.scope === null) return `Changes · ${count}`;
  if (s.files === 1) return s.scope;
  return s.scope === '' ? count : `${count} in ${s.scope}/`;
}

/** What a row says under its title: the time, and the files when the title does not already. */
function snapshotMeta(s: SnapshotInfo): string | null {
  if (s.kind === 'checkpoint') return s.branch ? `on ${s.branch}` : null;
  if (s.kind === 'change' && s.label === null) return null;
  return s.files === 1 ? '1 file' : `${formatCount(s.files)} files`;
}

/** "4,846 files, 2 changed since the previous checkpoint". */
export function summaryText(summary: SnapshotSummary): string {
  const files = summary.files === 1 ? '1 file' : `${formatCount(summary.files)} files`;
  if (!summary.since) return files;
  const since = summary.since.kind === 'checkpoint' ? 'the previous checkpoint' : 'the first copy';
  return `${files}, ${summary.changedSince === 0 ? 'none' : formatCount(summary.changedSince)} changed since ${since}`;
}

function SnapshotList() {
  const recorded = useApp((s) => s.snapshots);
  // A checkpoint git's operation made that records no file equals the row before it: shown as that row.
  const snapshots = useMemo(() => recorded.filter((s) => s.foldedInto === undefined), [recorded]);
  const selected = useApp((s) => s.selectedSnapshotId);
  const select = useApp((s) => s.selectSnapshot);
  const policy = useApp((s) => s.retention?.policy);
  const marks = useMemo(() => (policy ? thinningMarks(snapshots, policy) : new Map<number, string>()), [snapshots, policy]);
  const pinned = useApp((s) => s.retention?.pins.snapshots);
  function onKeyDown(event: React.KeyboardEvent<HTMLUListElement>) {
    moveInList(
      event,
      snapshots.map((s) => s.snapshotId),
      selected,
      select,
      'data-snapshot',
    );
  }
  return (
    <ul className="snapshot-list" aria-label="Snapshots" onKeyDown={onKeyDown}>
      {snapshots.map((s, i) => {
        const meta = snapshotMeta(s);
        return (
          <Fragment key={s.snapshotId}>
            {marks.has(s.snapshotId) && (
              <li className="thinning-mark" role="separator" aria-label={marks.get(s.snapshotId)}>
                {marks.get(s.snapshotId)}
              </li>
            )}
            <li>
              <button
                type="button"
                data-snapshot={s.snapshotId}
                className={s.snapshotId === selected ? 'snapshot is-selected' : 'snapshot'}
                aria-current={s.snapshotId === selected ? 'true' : undefined}
                tabIndex={s.snapshotId === selected || (selected === null && i === 0) ? 0 : -1}
                onClick={() => void select(s.snapshotId)}
              >
                <span className={`snapshot-dot kind-${s.kind}`} aria-hidden="true" />
                <span className="snapshot-text">
                  <span className="snapshot-title" title={snapshotTitle(s)}>
                    {snapshotTitle(s)}
                  </span>
                  <span className="snapshot-meta">
                    {pinned?.includes(s.snapshotId) && (
                      <>
                        <span className="snapshot-pinned" title="Pinned: no clean-up removes this snapshot">
                          <PinMark />
                          Pinned
                        </span>
                        {' · '}
                      </>
                    )}
                    <RelativeTime at={s.at} />
                    {meta && ` · ${meta}`}
                    {s.machine && (
                      <span
                        title={`Recorded on machine ${s.machine.id} as snapshot ${s.machine.snapshot}`}
                      >{` · from machine ${s.machine.id.slice(0, 8)}`}</span>
                    )}
                  </span>
                </span>
              </button>
            </li>
          </Fragment>
        );
      })}
    </ul>
  );
}

function SnapshotDetail() {
  const snapshot = useApp((s) => s.snapshots.find((x) => x.snapshotId === s.selectedSnapshotId));
  const changes = useApp((s) => s.snapshotChanges);
  const summary = useApp((s) => s.snapshotSummary);
  if (!snapshot) return <EmptyState title="No snapshot selected" />;
  return (
    <section className="pane snapshot-detail" aria-label="Snapshot">
      <header className="detail-header">
        <div>
          <h2 className="detail-title" title={snapshotTitle(snapshot)}>
            {snapshotTitle(snapshot)}
          </h2>
          <p className="muted">
            {formatExact(snapshot.at)} · <RelativeTime at={snapshot.at} />
            {snapshot.branch ? ` · on ${snapshot.branch}` : ''}
          </p>
          {summary?.snapshotId === snapshot.snapshotId && <p className="snapshot-holds">{summaryText(summary)}</p>}
        </div>
        <SnapshotActions snapshot={snapshot} />
      </header>
      {changes === null ? (
        <p className="loading">Loading files…</p>
      ) : changes.length === 0 ? (
        snapshot.kind === 'checkpoint' ? (
          <EmptyState title="A checkpoint marks a moment">
            {summary?.snapshotId === snapshot.snapshotId ? `It holds ${summaryText(summary)}.` : 'It holds every file as it stood then.'} Restore it to bring
            the project back to that moment.
          </EmptyState>
        ) : (
          <EmptyState title="No file changed in this snapshot" />
        )
      ) : (
        <SnapshotChangeList changes={changes} />
      )}
    </section>
  );
}

/** The selected snapshot's pin, "Undo this restore" (a restore's entry), its restores and "Open as a new folder…". */
function SnapshotActions({ snapshot }: { snapshot: SnapshotInfo }) {
  const begin = useApp((s) => s.beginSnapshotRestore);
  const beginUndo = useApp((s) => s.beginRestoreUndo);
  const openAsFolder = useApp((s) => s.setOpenAsFolderDialog);
  return (
    <div className="detail-actions">
      <PinToggle target={{ snapshotId: snapshot.snapshotId }} what="snapshot" shortcut="P" />
      {snapshot.kind === 'restore' && (
        <button
          type="button"
          className="button"
          onClick={beginUndo}
          title="Put back only the files this restore changed, as they were just before it; later changes to other files stay"
        >
          Undo this restore
        </button>
      )}
      <button
        type="button"
        className="button"
        onClick={() => begin('project')}
        aria-keyshortcuts="R"
        title="Bring every file back as it was in this snapshot; what it overwrites is recorded first (R)"
      >
        Restore project…
      </button>
      <button type="button" className="button" onClick={() => begin('folder')}>
        Restore a folder…
      </button>
      <button type="button" className="button" onClick={() => openAsFolder(true)} title="Write this snapshot into a new folder; the project is not touched">
        Open as a new folder…
      </button>
    </div>
  );
}

/** The files a snapshot changed (the first 2,000, then how many more), each opening its diff at that snapshot. */
function SnapshotChangeList({ changes }: { changes: SnapshotChange[] }) {
  const openVersion = useApp((s) => s.openVersion);
  const shown = changes.slice(0, 2000);
  return (
    <ul className="change-list" aria-label="Files in this snapshot">
      {shown.map((c) => (
        <li key={c.path} className={`change change-${c.change}`}>
          <button
            type="button"
            className="change-open"
            title={`Show the diff of ${displayPath(c.path)} at this snapshot`}
            onClick={() => void openVersion(c.path, c.versionId)}
          >
            <span className="change-kind" aria-label={c.change}>
              {c.change === 'added' ? 'A' : c.change === 'deleted' ? 'D' : 'M'}
            </span>
            <span className="change-path">{displayPath(c.path)}</span>
          </button>
        </li>
      ))}
      {changes.length > shown.length && <li className="muted">and {formatCount(changes.length - shown.length)} more</li>}
    </ul>
  );
}
