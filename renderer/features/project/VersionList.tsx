import { useEffect, useRef, type RefObject } from 'react';
import type { DiskState, VersionInfo } from '../../../shared/contract.js';
import { versionNumbers, versionTotal } from '../../stores/versionNumbers.js';
import { originText } from '../../../shared/originText.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { formatBytes } from '../../format/bytes.js';
import { formatExact } from '../../format/time.js';
import { PinMark } from '../../components/PinMark.js';
import { snapshotName } from '../../format/snapshotName.js';
import { RelativeTime } from '../../components/RelativeTime.js';
import { useApp } from '../../stores/appStore.js';
import { moveInList } from '../../components/listKeys.js';
import { gitTitle, renamedText } from '../../../shared/versionWords.js';

// The selected file's versions, newest first, each numbered (1 is the oldest) and named by where
// it came from (an edit, a restore of version N, the undo of a restore, a git checkout...). The
// row identical to the file on disk now is marked Current (a version of this machine's line: the
// folder's own history); a version another machine recorded (brought in by a clone or a pull) says
// which machine. Arrow keys move the selection (each row is a button; focus and selection move
// together); each row's checkbox picks it for a comparison of two versions. A long history comes a page at a time: the next older page loads
// when the end of the list scrolls into view (or on its button); the numbers count from the
// file's version count, so they stay right before the oldest page is loaded.

export function VersionList() {
  const versions = useApp((s) => s.versions);
  const status = useApp((s) => s.versionsStatus);
  const error = useApp((s) => s.versionsError);
  const path = useApp((s) => s.versionsPath);
  const selected = useApp((s) => s.selectedVersionId);
  const selectVersion = useApp((s) => s.selectVersion);
  const more = useApp((s) => s.versionsMore);
  const total = useApp(versionTotal);
  const disk = useApp((s) => s.disk);
  const picks = useApp((s) => s.comparePicks);
  const togglePick = useApp((s) => s.togglePick);
  const pinned = useApp((s) => s.retention?.pins.versions);
  const revealed = useApp((s) => s.revealed);
  const list = useRef<HTMLUListElement>(null);
  useRevealSelected(list, revealed, versions);

  if (!path) return <EmptyState title="No file selected">Choose a file to see its versions.</EmptyState>;
  if (status === 'error' && error) return <ErrorNote error={error} title="The versions could not be read" />;

  const onKeyDown = (event: React.KeyboardEvent<HTMLUListElement>) => moveInVersions(event, versions, selected, selectVersion);
  const pickStop = selected ?? versions[0]?.versionId;
  const numberOf = versionNumbers(versions, total);

  return (
    <ul ref={list} className="version-list" aria-label="Versions" aria-busy={status === 'loading'} data-path={path} onKeyDown={onKeyDown}>
      {versions.map((v, i) => (
        <VersionRow
          key={v.versionId}
          version={v}
          number={numberOf.get(v.versionId)}
          title={versionTitle(v, !more && i === versions.length - 1, numberOf)}
          selected={v.versionId === selected}
          tabbable={v.versionId === selected || (selected === null && i === 0)}
          pickStop={v.versionId === pickStop}
          picked={picks.includes(v.versionId)}
          pinned={pinned?.includes(v.versionId) ?? false}
          current={disk?.currentVersionId === v.versionId ? disk : null}
          onSelect={selectVersion}
          onPick={togglePick}
        />
      ))}
      {more && (
        <li className="version-more">
          <OlderVersions />
        </li>
      )}
    </ul>
  );
}

/**
 * A version opened from a search hit or the Timeline: its row scrolled to the middle of the list,
 * where the header growing for the selection (its actions wrap) cannot push it out of view. A
 * row not rendered yet is scrolled to when the versions next change.
 */
function useRevealSelected(list: RefObject<HTMLUListElement | null>, revealed: number, versions: VersionInfo[]): void {
  const shownReveal = useRef(0);
  useEffect(() => {
    if (revealed === 0 || shownReveal.current === revealed) return;
    const row = list.current?.querySelector(`[data-version="${useApp.getState().selectedVersionId}"]`);
    if (!row) return;
    revealRow(row);
    shownReveal.current = revealed;
  }, [list, revealed, versions]);
}

/** Arrow keys move the selection; on a compare box they move among the boxes instead. */
function moveInVersions(
  event: React.KeyboardEvent<HTMLUListElement>,
  versions: VersionInfo[],
  selected: number | null,
  selectVersion: (versionId: number) => void,
): void {
  const ids = versions.map((v) => v.versionId);
  if ((event.target as HTMLElement).tagName === 'INPUT') {
    // The compare boxes are one tab stop: arrows move among them (Space picks), not the selection.
    const at = Number((event.target as HTMLElement).dataset.pick);
    moveInList(event, ids, ids.includes(at) ? at : null, () => undefined, 'data-pick');
    return;
  }
  moveInList(event, ids, selected, selectVersion, 'data-version');
}

interface VersionRowProps {
  version: VersionInfo;
  number: number | undefined;
  title: string;
  selected: boolean;
  /** The list's one tab stop: the selected row, else the first. */
  tabbable: boolean;
  /** The compare boxes' one tab stop. */
  pickStop: boolean;
  picked: boolean;
  pinned: boolean;
  /** The disk's state when this row is identical to the file on disk now, else null. */
  current: DiskState | null;
  onSelect: (versionId: number) => void;
  onPick: (versionId: number) => void;
}

/** One version: a button that selects it (what it is, its number, time and size) and its compare box. */
function VersionRow({ version: v, number: n, title, selected, tabbable, pickStop, picked, pinned, current, onSelect, onPick }: VersionRowProps) {
  return (
    <li className={picked ? 'version-row is-picked' : 'version-row'}>
      <button
        type="button"
        data-version={v.versionId}
        className={selected ? 'version is-selected' : 'version'}
        aria-current={selected ? 'true' : undefined}
        tabIndex={tabbable ? 0 : -1}
        onClick={() => onSelect(v.versionId)}
      >
        <span className="version-head">
          <span className={`version-kind kind-${v.hash === null ? 'deleted' : originClass(v)}`} title={title}>
            {title}
          </span>
          {pinned && (
            <span className="version-pinned" title="Pinned: no clean-up removes this version">
              <PinMark />
              Pinned
            </span>
          )}
          {current && (
            <span className="version-current" title={currentTitle(current)}>
              Current
            </span>
          )}
        </span>
        <VersionMeta version={v} number={n} />
      </button>
      <label className="version-pick" title={picked ? 'Picked for comparison' : 'Pick two versions to compare them'}>
        <input
          type="checkbox"
          data-pick={v.versionId}
          tabIndex={pickStop ? 0 : -1}
          checked={picked}
          onChange={() => onPick(v.versionId)}
          aria-label={n === undefined ? `Compare the version of ${formatExact(v.at)}` : `Compare version ${n}`}
        />
      </label>
    </li>
  );
}

/** A row's second line: its number and time, a rename, its size, the machine it came from. */
function VersionMeta({ version: v, number: n }: { version: VersionInfo; number: number | undefined }) {
  return (
    <span className="version-meta">
      <span className="version-number">
        {n !== undefined && `Version ${n} · `}
        <RelativeTime className="version-relative" at={v.at} />
      </span>
      {v.renamedFrom !== null && <span className="version-renamed">{renamedText(v.renamedFrom)}</span>}
      <span className="version-exact">{formatExact(v.at)}</span>
      <span>{v.hash === null ? '—' : formatBytes(v.size)}</span>
      {v.machine && (
        <span className="version-machine" title={`Recorded on machine ${v.machine.id} as snapshot ${v.machine.snapshot}`}>
          {machineText(v.machine)}
        </span>
      )}
    </span>
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

/** A row's name: where the version came from; a deletion by an edit is "Deleted". */
export function versionTitle(v: VersionInfo, oldest: boolean, numberOf: ReadonlyMap<number, number>): string {
  const name = (id: number) => (numberOf.has(id) ? `version ${numberOf.get(id)}` : 'an earlier version');
  // The snapshot a restore came from, by its time where the Timeline has read it.
  const snapshot = (id: number) => snapshotName(useApp.getState().snapshots.find((s) => s.snapshotId === id));
  if (v.hash === null) return v.origin.kind === 'edit' ? 'Deleted' : `Deleted · ${originText(v.origin, name, snapshot)}`;
  if (oldest && v.origin.kind === 'edit') return 'Added';
  return gitTitle(v) ?? originText(v.origin, name, snapshot);
}

/** Where a version brought in from another machine (a clone, a pull) was recorded. */
export function machineText(machine: NonNullable<VersionInfo['machine']>): string {
  return `from machine ${machine.id.slice(0, 8)}`;
}

function originClass(v: VersionInfo): string {
  return v.origin.kind === 'undo' ? 'restore' : v.origin.kind === 'first-copy' ? 'baseline' : v.origin.kind;
}

function currentTitle(disk: DiskState | null): string {
  return disk?.exists === false ? 'The file is deleted on disk now, as in this version' : 'The file on disk now is identical to this version';
}

/**
 * Scrolls a row to the middle of the list, again on the next frames until it stays put: rows off
 * screen are not laid out (content-visibility: auto) and count at their estimated height, so the
 * first scroll lands by estimates, and the rows it brings on screen then take their real heights
 * and move the target.
 */
function revealRow(row: Element, framesLeft = 5): void {
  const before = row.getBoundingClientRect().top;
  row.scrollIntoView({ block: 'center' });
  requestAnimationFrame(() => {
    if (framesLeft > 1 && row.isConnected && row.getBoundingClientRect().top !== before) revealRow(row, framesLeft - 1);
  });
}
