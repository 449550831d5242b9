import { ProjectStateBanner } from '../errors/ProjectStateBanner.js';
import { UnreadableBanner } from '../errors/UnreadableBanner.js';
import { RecoveredRestoresBanner } from '../errors/RecoveredRestoresBanner.js';
import { StoreView } from '../store/StoreView.js';
import { CheckpointDialog } from '../timeline/CheckpointDialog.js';
import { TimelineView } from '../timeline/TimelineView.js';
import { useApp } from '../../stores/appStore.js';
import { PROJECT_TABS } from '../projectTabs.js';
import { shortcutLabel } from '../shortcuts.js';
import { FilesView } from './FilesView.js';
import { SearchBox, SearchView } from './HistorySearch.js';

// One project: its header (name, folder, the history search box, Checkpoint) and four tabs:
// Files, Timeline, Store, and the search's results.

const TABS = PROJECT_TABS;

export function ProjectScreen({ projectId }: { projectId: string }) {
  const project = useApp((s) => s.projects.find((p) => p.projectId === projectId));
  const view = useApp((s) => s.view);
  const setView = useApp((s) => s.setView);
  const setCheckpointDialog = useApp((s) => s.setCheckpointDialog);

  function onTabKey(event: React.KeyboardEvent) {
    const index = TABS.findIndex((t) => t.view === view);
    const next = event.key === 'ArrowRight' ? index + 1 : event.key === 'ArrowLeft' ? index - 1 : null;
    if (next === null) return;
    event.preventDefault();
    const tab = TABS[(next + TABS.length) % TABS.length];
    if (!tab) return;
    setView(tab.view);
    document.getElementById(`tab-${tab.view}`)?.focus();
  }

  return (
    <div className="project">
      <header className="project-header">
        <div className="project-id">
          <h1 className="project-name" title={project?.name}>
            {project?.name ?? 'Project'}
          </h1>
          <p className="project-path" title={project?.root}>
            {project?.root}
          </p>
        </div>
        <div className="tabs" role="tablist" aria-label="Project views" onKeyDown={onTabKey}>
          {TABS.map((t) => (
            <button
              key={t.view}
              id={`tab-${t.view}`}
              type="button"
              role="tab"
              aria-selected={view === t.view}
              aria-controls="project-panel"
              tabIndex={view === t.view ? 0 : -1}
              title={`${t.label} (${shortcutLabel(t.key)})`}
              onClick={() => setView(t.view)}
            >
              {t.label}
            </button>
          ))}
        </div>
        <SearchBox />
        <button type="button" className="button" onClick={() => setCheckpointDialog(true)} title="Save a named snapshot of the project as it is now">
          Checkpoint
        </button>
      </header>
      {project && <ProjectStateBanner project={project} />}
      <UnreadableBanner projectId={projectId} />
      <RecoveredRestoresBanner projectId={projectId} />
      <div id="project-panel" role="tabpanel" aria-labelledby={`tab-${view}`} className="project-panel">
        {view === 'files' && <FilesView />}
        {view === 'timeline' && <TimelineView />}
        {view === 'store' && <StoreView />}
        {view === 'search' && <SearchView />}
      </div>
      <CheckpointDialog />
    </div>
  );
}
