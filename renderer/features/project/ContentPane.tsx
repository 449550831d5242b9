import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import type { FileBytes } from '../../../shared/contract.js';
import { matchAt } from '../../../shared/textSearch.js';
import { lineSpan } from '../../../shared/viewLink.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { formatBytes } from '../../format/bytes.js';
import { baseName, binaryTypeName, imageMime, viewKind } from '../../format/fileKind.js';
import { formatExact } from '../../format/time.js';
import { useApp } from '../../stores/appStore.js';
import { bytesOf, sameBytes, textOf } from './fileBytes.js';
import { useDiffLayout } from './diffLayout.js';
import { versionNumbers, versionTotal } from '../../stores/versionNumbers.js';
import { displayPath } from '../../../shared/fileNameBytes.js';
import type { HunkRange } from '../../../shared/contract.js';
import type { BlockAction } from '../../components/blockActions.js';
import { comparisonTitle, type Comparison } from '../../stores/compareSides.js';
import { currentComparison as comparisonOf } from '../../stores/versionsSlice.js';
import { versionName } from '../../format/versionName.js';
import { LineHistoryPanel } from './LineHistoryPanel.js';
import { VersionToolbar } from './VersionToolbar.js';

// CodeMirror loads on first use, so the window and the tree paint without waiting for it.
const CodeView = lazy(() => import('../../components/CodeView.js').then((m) => ({ default: m.CodeView })));
const DiffView = lazy(() => import('../../components/DiffView.js').then((m) => ({ default: m.DiffView })));

// The selected version: its contents (text highlighted, images shown, other binaries described),
// or its diff against the file on disk, the version before it, or git's HEAD or INDEX version, or
// the diff of two versions picked in the list; and restoring it (VersionToolbar.tsx: not offered
// when the file on disk is already identical to it: the reason is shown beside the button).

export function ContentPane() {
  // The diff view's code is fetched while a version is being looked at, so Compare draws at once.
  useEffect(() => void import('../../components/DiffView.js').catch(() => undefined), []);
  const path = useApp((s) => s.versionsPath);
  const versions = useApp((s) => s.versions);
  const selectedId = useApp((s) => s.selectedVersionId);
  const compareWith = useApp((s) => s.compareWith);
  const version = versions.find((v) => v.versionId === selectedId);
  const disk = useApp((s) => s.disk);
  const git = useApp((s) => s.gitVersions);
  const picks = useApp((s) => s.comparePicks);
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
      <VersionToolbar path={path} version={version} number={number} numberOf={numberOf} subtitle={subtitle} comparingPicks={comparingPicks} />
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
