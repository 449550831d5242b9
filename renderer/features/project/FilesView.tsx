import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { formatCount } from '../../format/bytes.js';
import { useApp } from '../../stores/appStore.js';
import { ContentPane } from './ContentPane.js';
import { FileTree } from './FileTree.js';
import { RestoreFileDialog } from './RestoreFileDialog.js';
import { VersionList } from './VersionList.js';

// The Files tab: the tree on the left, the selected file's versions, and the selected version.

export function FilesView() {
  return (
    <div className="files-view">
      <aside className="pane tree-pane" aria-label="File browser">
        <TreeControls />
        <TreeBody />
      </aside>
      <section className="pane versions-pane" aria-label="File history">
        <VersionsHeader />
        <VersionList />
      </section>
      <ContentPane />
      <RestoreFileDialog />
    </div>
  );
}

function TreeControls() {
  const filter = useApp((s) => s.filter);
  const setFilter = useApp((s) => s.setFilter);
  const showDeleted = useApp((s) => s.showDeleted);
  const setShowDeleted = useApp((s) => s.setShowDeleted);
  const deletedCount = useApp((s) => s.deleted.length);
  return (
    <div className="tree-controls">
      <input
        id="file-filter"
        type="search"
        className="input"
        placeholder="Filter files"
        aria-label="Filter files"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            document.querySelector<HTMLElement>('[role="tree"]')?.focus();
          }
        }}
      />
      <label className="checkbox">
        <input type="checkbox" checked={showDeleted} onChange={(e) => setShowDeleted(e.target.checked)} />
        Show deleted files{deletedCount > 0 ? ` (${formatCount(deletedCount)})` : ''}
      </label>
    </div>
  );
}

function TreeBody() {
  const status = useApp((s) => s.treeStatus);
  const error = useApp((s) => s.treeError);
  const count = useApp((s) => s.files.length);
  const deletedCount = useApp((s) => s.deleted.length);
  const showDeleted = useApp((s) => s.showDeleted);
  if (status === 'error' && error) return <ErrorNote error={error} title="The files could not be listed" />;
  if (status !== 'ready') return <p className="loading">Loading files…</p>;
  if (count === 0 && !(showDeleted && deletedCount > 0)) {
    return <EmptyState title="This folder is empty">Files you add to it will appear here as they are recorded.</EmptyState>;
  }
  return <FileTree />;
}

function VersionsHeader() {
  const path = useApp((s) => s.versionsPath);
  const count = useApp((s) => s.versions.length);
  return (
    <header className="pane-header">
      <h2 className="pane-title" title={path ?? undefined}>
        {path ?? 'Versions'}
      </h2>
      {path && <span className="pane-sub">{count === 1 ? '1 version' : `${formatCount(count)} versions`}</span>}
    </header>
  );
}
