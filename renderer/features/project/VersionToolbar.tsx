import type { VersionInfo } from '../../../shared/contract.js';
import { displayPath } from '../../../shared/fileNameBytes.js';
import { PinToggle } from '../../components/PinToggle.js';
import { baseName } from '../../format/fileKind.js';
import { versionName } from '../../format/versionName.js';
import { useApp } from '../../stores/appStore.js';
import type { CompareWith } from '../../stores/versionsSlice.js';
import { useNarrowWindow } from './diffLayout.js';
import { LineHistoryButton } from './LineHistoryButton.js';

// The content pane's toolbar: the file and what is shown of it, what to compare the version
// with (or Stop comparing two picked versions), the diff layout, History for selection, the pin,
// and Restore (not offered when the file on disk is already identical: the reason is shown beside it).

interface VersionToolbarProps {
  path: string;
  version: VersionInfo;
  /** The version's number, where the versions read so far tell it. */
  number: number | undefined;
  numberOf: ReadonlyMap<number, number>;
  subtitle: string;
  comparingPicks: boolean;
}

export function VersionToolbar({ path, version, number, numberOf, subtitle, comparingPicks }: VersionToolbarProps) {
  const compareWith = useApp((s) => s.compareWith);
  const picks = useApp((s) => s.comparePicks);
  return (
    <div className="toolbar">
      <div className="toolbar-title">
        <span className="toolbar-name">{displayPath(baseName(path))}</span>
        <span className="toolbar-sub" role={comparingPicks ? 'status' : undefined}>
          {subtitle}
        </span>
      </div>
      {comparingPicks ? <StopComparing /> : <CompareWithSelect />}
      {picks.length === 1 && (
        <span className="toolbar-note" role="status">
          {numberOf.has(picks[0]!) ? `Pick another version to compare with Version ${numberOf.get(picks[0]!)}` : 'Pick another version to compare with'}
        </span>
      )}
      {(compareWith !== 'none' || comparingPicks) && <DiffLayoutToggle />}
      {!comparingPicks && compareWith === 'none' && <LineHistoryButton path={path} version={version} />}
      {!comparingPicks && <PinToggle target={{ versionId: version.versionId }} what={number === undefined ? 'version' : `version ${number}`} shortcut="P" />}
      {!comparingPicks && <RestoreAction path={path} version={version} number={number} />}
    </div>
  );
}

function StopComparing() {
  const clearPicks = useApp((s) => s.clearPicks);
  return (
    <div className="field-inline picks-note">
      <button type="button" className="button" onClick={clearPicks}>
        Stop comparing
      </button>
    </div>
  );
}

function CompareWithSelect() {
  const compareWith = useApp((s) => s.compareWith);
  const setCompareWith = useApp((s) => s.setCompareWith);
  const git = useApp((s) => s.gitVersions);
  return (
    <label className="field-inline" title="What to compare this version with (C: the current file, or back to nothing)">
      Compare with
      <select aria-keyshortcuts="C" value={compareWith} onChange={(e) => setCompareWith(e.target.value as CompareWith)}>
        <option value="none">Nothing</option>
        <option value="disk">Current file</option>
        <option value="previous">Previous version</option>
        {git && <option value="head">Git HEAD (committed)</option>}
        {git && <option value="index">Git index (staged)</option>}
      </select>
    </label>
  );
}

/** Side by side or inline; side by side is off in a window too narrow for two columns. */
function DiffLayoutToggle() {
  const diffLayout = useApp((s) => s.diffLayout);
  const setDiffLayout = useApp((s) => s.setDiffLayout);
  const narrow = useNarrowWindow();
  return (
    <div className="segmented" role="group" aria-label="Diff layout">
      <button
        type="button"
        aria-pressed={!narrow && diffLayout === 'side'}
        disabled={narrow}
        title={narrow ? 'The window is too narrow for two columns: widen it to compare side by side' : undefined}
        onClick={() => setDiffLayout('side')}
      >
        Side by side
      </button>
      <button type="button" aria-pressed={narrow || diffLayout === 'inline'} onClick={() => setDiffLayout('inline')}>
        Inline
      </button>
    </div>
  );
}

function RestoreAction({ path, version, number }: { path: string; version: VersionInfo; number: number | undefined }) {
  const requestRestore = useApp((s) => s.requestRestore);
  const alreadyDeleted = useApp((s) => s.deleted.some((d) => d.path === path));
  const disk = useApp((s) => s.disk);
  const isLatest = useApp((s) => s.versions[0]?.versionId === version.versionId);
  // Restoring a version the disk already holds (or a deletion onto a file already gone) would change nothing.
  const identical = disk?.sameVersionIds.includes(version.versionId) ?? false;
  const noop = identical || (version.hash === null && alreadyDeleted);
  const noopReason = version.hash === null ? 'The file is already deleted on disk' : 'Identical to the file on disk';
  const title = noop
    ? `${noopReason}: restoring it would change nothing`
    : isLatest
      ? 'This is the latest version; restoring it rewrites the file as recorded'
      : `Write ${versionName(number, version.at)} back to the file`;
  return (
    <span className="restore-action">
      {noop && (
        <span className="toolbar-note" id="restore-reason">
          {noopReason}
        </span>
      )}
      <button
        type="button"
        className="button button-primary"
        onClick={() => void requestRestore()}
        disabled={noop}
        aria-label={number === undefined ? 'Restore this version' : `Restore this version, Version ${number}`}
        aria-describedby={noop ? 'restore-reason' : undefined}
        aria-keyshortcuts="R"
        title={`${title} (R)`}
      >
        {number === undefined ? 'Restore this version' : `Restore Version ${number}`}
      </button>
    </span>
  );
}
