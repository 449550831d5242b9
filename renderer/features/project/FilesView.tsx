import { useRef, useState } from 'react';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { formatCount } from '../../format/bytes.js';
import { useApp } from '../../stores/appStore.js';
import { ContentPane } from './ContentPane.js';
import { DeletedList } from './DeletedList.js';
import { FileTree } from './FileTree.js';
import { levelIsEmpty } from './levelRows.js';
import { folderMismatch } from './folderMismatch.js';
import { minOf } from '../../../shared/largeArrays.js';
import type { FirstMatch } from './firstMatch.js';
import { RestoreFileDialog } from './RestoreFileDialog.js';
import { VersionList } from './VersionList.js';
import { VersionScrubber } from './VersionScrubber.js';
import { versionTotal } from '../../stores/versionNumbers.js';
import { displayPath } from '../../../shared/fileNameBytes.js';

// The Files tab: the files on the left (as a tree, or the deleted ones as a flat list), the
// selected file's versions, and the selected version.

type FileListMode = 'tree' | 'deleted';

export function FilesView() {
  const [mode, setMode] = useState<FileListMode>('tree');
  const firstMatch = useRef<FirstMatch>(null);
  return (
    <div className="files-view">
      <aside className="pane tree-pane" aria-label="File browser">
        <TreeControls mode={mode} setMode={setMode} firstMatch={firstMatch} />
        {mode === 'tree' ? <TreeBody firstMatch={firstMatch} /> : <DeletedList firstMatch={firstMatch} />}
      </aside>
      <section className="pane versions-pane" aria-label="File history">
        <VersionsHeader />
        <div className="scrubbed-list">
          <VersionScrubber />
          <VersionList />
        </div>
      </section>
      <ContentPane />
      <RestoreFileDialog />
    </div>
  );
}

interface TreeControlsProps {
  mode: FileListMode;
  setMode: (mode: FileListMode) => void;
  firstMatch: React.RefObject<FirstMatch | null>;
}

function TreeControls({ mode, setMode, firstMatch }: TreeControlsProps) {
  const filter = useApp((s) => s.filter);
  const setFilter = useApp((s) => s.setFilter);
  const loadFileList = useApp((s) => s.loadFileList);
  const showDeleted = useApp((s) => s.showDeleted);
  const setShowDeleted = useApp((s) => s.setShowDeleted);
  const deletedCount = useApp((s) => s.deleted.length);
  return (
    <div className="tree-controls">
      <input
        id="file-filter"
        type="search"
        className="input"
        placeholder="Filter by name or pattern (*.h)"
        aria-label="Filter files"
        title="Part of a path, letters in order (addc finds add.c), or a pattern: *.h, src/**/*.c. Down or Enter goes to the first match."
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        // The filter matches every path: they are read as soon as it is about to be used.
        onFocus={() => void loadFileList()}
        onKeyDown={(e) => {
          // Down or Enter: to the first match (or the list's first row), selected.
          if ((e.key === 'ArrowDown' || e.key === 'Enter') && firstMatch.current?.focus()) e.preventDefault();
        }}
      />
      <div className="tree-modes">
        <div className="segmented" role="group" aria-label="Files shown">
          <button type="button" aria-pressed={mode === 'tree'} onClick={() => setMode('tree')} title="Every file as a tree of folders">
            All files
          </button>
          <button
            type="button"
            aria-pressed={mode === 'deleted'}
            onClick={() => setMode('deleted')}
            title="Only the deleted files, in one list, the most recently deleted first"
          >
            Deleted{deletedCount > 0 ? ` (${formatCount(deletedCount)})` : ''}
          </button>
        </div>
        {/* The tree's own option (the list above is the other way to see them): where each deleted file was. */}
        {mode === 'tree' && (
          <label className="checkbox" title="Show the deleted files in the tree too, in the folders they were in">
            <input type="checkbox" checked={showDeleted} onChange={(e) => setShowDeleted(e.target.checked)} />
            Show deleted files in the tree
          </label>
        )}
      </div>
    </div>
  );
}

function TreeBody({ firstMatch }: { firstMatch: React.RefObject<FirstMatch | null> }) {
  const status = useApp((s) => s.treeStatus);
  const error = useApp((s) => s.treeError);
  const root = useApp((s) => s.levels.get(''));
  const showDeleted = useApp((s) => s.showDeleted);
  const deleted = useApp((s) => s.deleted);
  if (status === 'error' && error) return <ErrorNote error={error} title="The files could not be listed" />;
  if (status !== 'ready' || root?.status !== 'ready')
    return (
      <p className="loading" role="status">
        Loading files…
      </p>
    );
  const mismatch = folderMismatch(root.level, deleted);
  if (mismatch === 'empty' && !showDeleted) return <MismatchNote mismatch={mismatch} />;
  if (mismatch === 'partial') {
    return (
      <>
        <MismatchNote mismatch={mismatch} />
        <FileTree firstMatch={firstMatch} />
      </>
    );
  }
  if (levelIsEmpty(root.level, showDeleted)) {
    return <EmptyState title="This folder is empty">Files you add to it will appear here as they are recorded.</EmptyState>;
  }
  return <FileTree firstMatch={firstMatch} />;
}

function VersionsHeader() {
  const path = useApp((s) => s.versionsPath);
  const shown = useApp((s) => s.versions.length);
  const total = useApp(versionTotal);
  // Older pages not loaded yet and the count not known: what is shown, and more.
  const more = total === null;
  const count = total ?? shown;
  return (
    <header className="pane-header">
      <h2 className="pane-title" title={path === null ? undefined : displayPath(path)}>
        {path === null ? 'Versions' : <bdi dir="ltr">{displayPath(path)}</bdi>}
      </h2>
      {path && <span className="pane-sub">{more ? `${formatCount(count)}+ versions` : count === 1 ? '1 version' : `${formatCount(count)} versions`}</span>}
    </header>
  );
}

/** The folder on disk does not hold the files of its history (an import for another folder): what to do. */
function MismatchNote({ mismatch }: { mismatch: 'empty' | 'partial' }) {
  const setView = useApp((s) => s.setView);
  const selectSnapshot = useApp((s) => s.selectSnapshot);
  const openAsFolder = useApp((s) => s.setOpenAsFolderDialog);
  const loadTimeline = useApp((s) => s.loadTimeline);
  // The last snapshot that still held the files: the one before their deletion.
  async function openLastFull(asFolder: boolean) {
    setView('timeline');
    await loadTimeline();
    const { snapshots, deleted } = useApp.getState();
    const gone = minOf(deleted.map((d) => d.snapshotId));
    const before = snapshots.find((s) => s.snapshotId < gone);
    if (before) await selectSnapshot(before.snapshotId);
    if (asFolder && before) openAsFolder(true);
  }
  return (
    <div className="notice notice-warning mismatch-note" role="status">
      <p>
        <strong>This folder does not hold these files</strong>
        {mismatch === 'partial' ? ': most of the files its history holds are missing on disk.' : '.'} Restore a snapshot into it or open it as a new folder.
      </p>
      <div className="mismatch-actions">
        <button type="button" className="button button-small" onClick={() => void openLastFull(false)}>
          Restore a snapshot…
        </button>
        <button type="button" className="button button-small" onClick={() => void openLastFull(true)}>
          Open as a new folder…
        </button>
      </div>
    </div>
  );
}
