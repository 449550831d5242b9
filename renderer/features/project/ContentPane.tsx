import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { PinToggle } from '../../components/PinToggle.js';
import type { FileBytes } from '../../../shared/contract.js';
import { matchAt } from '../../../shared/textSearch.js';
import { lineSpan } from '../../../shared/viewLink.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { formatBytes } from '../../format/bytes.js';
import { baseName, binaryTypeName, imageMime, viewKind } from '../../format/fileKind.js';
import { formatExact } from '../../format/time.js';
import { useApp } from '../../stores/appStore.js';
import type { CompareWith } from '../../stores/versionsSlice.js';
import { bytesOf, sameBytes, textOf } from './fileBytes.js';
import { useDiffLayout, useNarrowWindow } from './diffLayout.js';
import { versionNumbers, versionTotal } from '../../stores/versionNumbers.js';
import { displayPath } from '../../../shared/fileNameBytes.js';
import type { HunkRange } from '../../../shared/contract.js';
import type { BlockAction } from '../../components/blockActions.js';
import { comparisonTitle, type Comparison } from '../../stores/compareSides.js';
import { currentComparison as comparisonOf } from '../../stores/versionsSlice.js';
import { versionName } from '../../format/versionName.js';
import { LineHistoryButton } from './LineHistoryButton.js';
import { LineHistoryPanel } from './LineHistoryPanel.js';

// CodeMirror loads on first use, so the window and the tree paint without waiting for it.
const CodeView = lazy(() => import('../../components/CodeView.js').then((m) => ({ default: m.CodeView })));
const DiffView = lazy(() => import('../../components/DiffView.js').then((m) => ({ default: m.DiffView })));

// The selected version: its contents (text highlighted, images shown, other binaries described),
// or its diff against the file on disk, the version before it, or git's HEAD or INDEX version, or
// the diff of two versions picked in the list; and restoring it (not offered when the file on
// disk is already identical to it: the reason is shown beside the button).

export function ContentPane() {
  // The diff view's code is fetched while a version is being looked at, so Compare draws at once.
  useEffect(() => void import('../../components/DiffView.js').catch(() => undefined), []);
  const path = useApp((s) => s.versionsPath);
  const versions = useApp((s) => s.versions);
  const selectedId = useApp((s) => s.selectedVersionId);
  const compareWith = useApp((s) => s.compareWith);
  const diffLayout = useApp((s) => s.diffLayout);
  const setCompareWith = useApp((s) => s.setCompareWith);
  const setDiffLayout = useApp((s) => s.setDiffLayout);
  const narrow = useNarrowWindow();
  const requestRestore = useApp((s) => s.requestRestore);
  const version = versions.find((v) => v.versionId === selectedId);
  const alreadyDeleted = useApp((s) => !!path && s.deleted.some((d) => d.path === path));
  const disk = useApp((s) => s.disk);
  const git = useApp((s) => s.gitVersions);
  const picks = useApp((s) => s.comparePicks);
  const clearPicks = useApp((s) => s.clearPicks);
  const total = useApp(versionTotal);
  const more = useApp((s) => s.versionsMore);
  const revealed = useApp((s) => s.revealed);
  const body = useRef<HTMLDivElement>(null);
  // A version opened from a search hit or the Timeline: keyboard focus goes to what it shows.
  useEffect(() => {
    if (revealed > 0) body.current?.focus({ preventScroll: true });
  }, [revealed]);
  if (!path) {
    return (
      <section className="content-pane" aria-label="Version contents">
        <EmptyState title="Nothing to show yet">
          Choose a file, then one of its versions: what it held, how it differs and Restore appear here. Press ? for the keyboard shortcuts.
        </EmptyState>
      </section>
    );
  }
  if (!version) {
    return (
      <section className="content-pane" aria-label="Version contents">
        <EmptyState title="No version selected">Choose a version in the list to see what it held, compare it or restore it.</EmptyState>
      </section>
    );
  }
  // Restoring a version the disk already holds (or a deletion onto a file already gone) would change nothing.
  const identical = disk?.sameVersionIds.includes(version.versionId) ?? false;
  const noop = identical || (version.hash === null && alreadyDeleted);
  const noopReason = version.hash === null ? 'The file is already deleted on disk' : 'Identical to the file on disk';
  const isLatest = versions[0]?.versionId === version.versionId;
  const comparingPicks = picks.length === 2;
  const numberOf = versionNumbers(versions, total);
  const number = numberOf.get(version.versionId);
  const sides = comparingPicks
    ? comparisonOf({ versions, selectedVersionId: selectedId, compareWith, comparePicks: picks, gitVersions: git, versionsMore: more, disk })
    : null;
  // Two picked versions compared: the header names them, not the version selected before, and
  // offers no restore or pin of that one (Stop comparing goes back to it).
  const compared = sides ? comparisonTitle(sides) : 'Two versions';
  const shownName = comparingPicks ? compared : versionName(number, version.at);
  const subtitle = comparingPicks ? compared : `${versionName(number, version.at)} · ${formatExact(version.at)}`;

  return (
    <section className="content-pane" aria-label="Version contents">
      <div className="toolbar">
        <div className="toolbar-title">
          <span className="toolbar-name">{displayPath(baseName(path))}</span>
          <span className="toolbar-sub" role={comparingPicks ? 'status' : undefined}>
            {subtitle}
          </span>
        </div>
        {comparingPicks ? (
          <div className="field-inline picks-note">
            <button type="button" className="button" onClick={clearPicks}>
              Stop comparing
            </button>
          </div>
        ) : (
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
        )}
        {picks.length === 1 && (
          <span className="toolbar-note" role="status">
            {numberOf.has(picks[0]!) ? `Pick another version to compare with Version ${numberOf.get(picks[0]!)}` : 'Pick another version to compare with'}
          </span>
        )}
        {(compareWith !== 'none' || comparingPicks) && (
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
        )}
        {!comparingPicks && compareWith === 'none' && <LineHistoryButton path={path} version={version} />}
        {!comparingPicks && <PinToggle target={{ versionId: version.versionId }} what={number === undefined ? 'version' : `version ${number}`} shortcut="P" />}
        {!comparingPicks && (
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
              title={`${noop ? `${noopReason}: restoring it would change nothing` : isLatest ? 'This is the latest version; restoring it rewrites the file as recorded' : `Write ${versionName(number, version.at)} back to the file`} (R)`}
            >
              {number === undefined ? 'Restore this version' : `Restore Version ${number}`}
            </button>
          </span>
        )}
      </div>
      <div className="content-body" ref={body} tabIndex={-1} aria-label={`${shownName} of ${displayPath(baseName(path))}`}>
        <Suspense fallback={<p className="loading">Loading…</p>}>{compareWith === 'none' && !comparingPicks ? <VersionContents /> : <VersionDiff />}</Suspense>
      </div>
      <LineHistoryPanel path={path} versionId={version.versionId} />
    </section>
  );
}

function VersionContents() {
  const path = useApp((s) => s.versionsPath) ?? '';
  const content = useApp((s) => s.content);
  const status = useApp((s) => s.contentStatus);
  const error = useApp((s) => s.contentError);
  const version = useApp((s) => s.versions.find((v) => v.versionId === s.selectedVersionId));

  if (version?.hash === null)
    return <EmptyState title="Deleted">The file was deleted in this version. Choose an earlier version to see or restore what it held.</EmptyState>;
  if (status === 'error' && error) {
    const title = error.code === 'BLOB_MISSING' ? 'The contents of this version are missing from the history store' : 'This version could not be read';
    return <ErrorNote error={error} title={title} />;
  }
  if (status !== 'ready' || !content) return <p className="loading">Loading…</p>;
  return <FileBytesView path={path} file={content} />;
}

/** The search match to mark in this version's text when the version was opened from a search, else the line a deep link named. */
function useSearchMark(path: string, file: FileBytes, text: string): { from: number; to: number } | null {
  const highlight = useApp((s) => s.searchHighlight);
  const linked = useApp((s) => s.linkedLine);
  return useMemo(() => {
    if (highlight && highlight.path === path && highlight.versionId === file.versionId) return matchAt(text, highlight.query, highlight.line, highlight.column);
    return linked && linked.path === path ? lineSpan(text, linked.line) : null;
  }, [highlight, linked, path, file.versionId, text]);
}

function FileBytesView({ path, file }: { path: string; file: FileBytes }) {
  const kind = viewKind(path, file.binary);
  if (file.type === 'symlink')
    return (
      <EmptyState title="Symbolic link">
        Points to <code>{file.data}</code>
      </EmptyState>
    );
  if (kind === 'image' && !file.truncated) return <ImageView path={path} file={file} />;
  if (kind === 'binary' || kind === 'image') {
    return (
      <div className="binary-card">
        <p className="binary-type">{binaryTypeName(path)}</p>
        <p>{formatBytes(file.size)}</p>
        <p className="muted">Mode {(file.mode & 0o7777).toString(8).padStart(4, '0')} · binary contents are not shown</p>
      </div>
    );
  }
  return (
    <div className="code-wrap">
      {file.truncated && (
        <p className="notice">
          Showing the first {formatBytes(file.returnedBytes)} of {formatBytes(file.size)}.
        </p>
      )}
      <TextContents path={path} file={file} />
    </div>
  );
}

function TextContents({ path, file }: { path: string; file: FileBytes }) {
  const text = useMemo(() => textOf(file), [file]);
  const mark = useSearchMark(path, file, text);
  const setTextSelection = useApp((s) => s.setTextSelection);
  const versionId = file.versionId;
  const onSelectLines = useMemo(
    () => (versionId === null ? undefined : (from: number, to: number) => setTextSelection({ path, versionId, from, to })),
    [path, versionId, setTextSelection],
  );
  return <CodeView path={path} text={text} label={`Contents of ${displayPath(baseName(path))}`} mark={mark} onSelectLines={onSelectLines} />;
}

function ImageView({ path, file }: { path: string; file: FileBytes }) {
  const url = useMemo(() => URL.createObjectURL(new Blob([bytesOf(file)], { type: imageMime(path) ?? 'application/octet-stream' })), [path, file]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  const [dims, setDims] = useState<string | null>(null);
  return (
    <figure className="image-view">
      <img
        src={url}
        alt={`${displayPath(baseName(path))} as recorded`}
        onLoad={(e) => setDims(`${e.currentTarget.naturalWidth} × ${e.currentTarget.naturalHeight}`)}
      />
      <figcaption>
        {dims ? `${dims} · ` : ''}
        {formatBytes(file.size)}
      </figcaption>
    </figure>
  );
}

function VersionDiff() {
  const path = useApp((s) => s.versionsPath) ?? '';
  const diff = useApp((s) => s.diff);
  const error = useApp((s) => s.diffError);
  const layout = useDiffLayout();
  const sides = useComparison();
  const restoreChange = useApp((s) => s.restoreChange);
  const hunkRestore = useApp((s) => s.compareWith === 'disk' && s.comparePicks.length < 2);
  if (error) return <ErrorNote error={error} title="The comparison could not be made" />;
  if (!diff || !sides) return <p className="loading">Comparing…</p>;
  const beforeLabel = sides.before.label;
  const afterLabel = sides.after.label;
  const { before, after } = diff;
  if (before?.binary || after?.binary) {
    return (
      <EmptyState title={sameBytes(before, after) ? 'The files are identical' : 'Binary files differ'}>
        {beforeLabel}: {before ? formatBytes(before.size) : 'no file'} · {afterLabel}: {after ? formatBytes(after.size) : 'no file'}
      </EmptyState>
    );
  }
  // One change goes back into the file on disk: offered where the right side is that file, whole.
  const canRestoreChange = hunkRestore && before !== null && after !== null && !before.truncated && !after.truncated;
  return (
    <>
      <h3 className="compare-title">{comparisonTitle(sides)}</h3>
      <TextDiffView
        path={path}
        before={before}
        after={after}
        layout={layout}
        beforeLabel={beforeLabel}
        afterLabel={afterLabel}
        blockAction={canRestoreChange ? changeAction(sides.before.label, restoreChange) : undefined}
      />
    </>
  );
}

/** Kept per label and store action, so the diff view is not built again on every render. */
const changeActions = new Map<string, BlockAction>();
function changeAction(versionLabel: string, run: (block: HunkRange) => Promise<void>): BlockAction {
  let action = changeActions.get(versionLabel);
  if (!action) {
    action = {
      label: 'Restore this change',
      title: `Write the lines of ${versionLabel} back into the current file here (recorded first, undoable)`,
      run: (block) => void run(block),
    };
    changeActions.clear();
    changeActions.set(versionLabel, action);
  }
  return action;
}

/** What the view compares now, from the fields it depends on (made again only when one changes). */
function useComparison(): Comparison | null {
  const versions = useApp((s) => s.versions);
  const selectedVersionId = useApp((s) => s.selectedVersionId);
  const compareWith = useApp((s) => s.compareWith);
  const comparePicks = useApp((s) => s.comparePicks);
  const gitVersions = useApp((s) => s.gitVersions);
  const versionsMore = useApp((s) => s.versionsMore);
  const disk = useApp((s) => s.disk);
  return useMemo(
    () => comparisonOf({ versions, selectedVersionId, compareWith, comparePicks, gitVersions, versionsMore, disk }),
    [versions, selectedVersionId, compareWith, comparePicks, gitVersions, versionsMore, disk],
  );
}

interface TextDiffViewProps {
  path: string;
  before: FileBytes | null;
  after: FileBytes | null;
  layout: 'side' | 'inline';
  beforeLabel: string;
  afterLabel: string;
  blockAction: BlockAction | undefined;
}

function TextDiffView({ path, before, after, layout, beforeLabel, afterLabel, blockAction }: TextDiffViewProps) {
  // Decoded once per pair of versions, not on every render.
  const beforeText = useMemo(() => textOf(before), [before]);
  const afterText = useMemo(() => textOf(after), [after]);
  const cut = [before, after].find((f) => f?.truncated);
  return (
    <div className="diff-wrap">
      {cut && (
        <p className="notice">
          Comparing the first {formatBytes(cut.returnedBytes)} of {formatBytes(cut.size)}: the rest is not shown.
        </p>
      )}
      <DiffView
        path={path}
        before={beforeText}
        after={afterText}
        layout={layout}
        beforeLabel={before ? beforeLabel : `${beforeLabel} (no file)`}
        afterLabel={after ? afterLabel : `${afterLabel} (no file)`}
        blockAction={blockAction}
      />
    </div>
  );
}
