import type { HindsightEvent } from '../../shared/contract.js';
import type { ViewLink } from '../../shared/viewLink.js';
import { onEvent } from '../api/hindsight.js';
import { useApp } from './appStore.js';
import { showViewLink } from './linkedLine.js';
import { FOLDER_STATE_ERRORS } from './projectsSlice.js';
import { requestRefresh, setRefresher } from './refresh.js';
import { staleOf, touchesFiles, touchesPath, type Stale } from './staleView.js';

// Events from the history process, routed into the store: progress to its operation, a snapshot
// of the shown project to the timeline (the row itself, as the engine committed it) and, with
// what it changed, to the one refresh path (refresh.ts), folder state changes to the project list.

/**
 * What the refresh reloads: what the view shows of what changed. The timeline gets its rows from
 * the events; the statistics and the budget's figures show only in the Store tab, which reads
 * them when it opens; the pins show everywhere.
 */
async function refreshView(stale: Stale): Promise<void> {
  const s = useApp.getState();
  if (!s.currentProjectId) return;
  const inStore = s.view === 'store';
  await Promise.all([
    s.refreshTree(stale),
    s.versionsPath && touchesPath(stale, s.versionsPath) ? s.loadVersions(s.versionsPath, true) : undefined,
    s.stats && inStore ? s.loadStats() : undefined,
    s.retention && (stale.pinned || (inStore && touchesFiles(stale))) ? s.loadRetention() : undefined,
  ]);
}

export function routeEvent(event: HindsightEvent): void {
  const s = useApp.getState();
  switch (event.event) {
    case 'progress': {
      const { operationId, ...progress } = event.payload;
      if (!operationId) return;
      if (progress.operation === 'verify') s.verifyProgressed(operationId, progress);
      else s.copyProgress(operationId, progress);
      return;
    }
    case 'snapshot':
      if (event.payload.projectId !== s.currentProjectId) return;
      s.snapshotRecorded(event.payload.snapshot);
      // What it changed decides what is read again (a checkpoint: no file, perhaps a pin).
      requestRefresh(staleOf(event.payload.effect));
      return;
    case 'projectState':
      s.projectStateChanged(event.payload.projectId, event.payload.root, event.payload.state);
      return;
    case 'error':
      // A watched folder that vanished or was replaced gets its project's banner, after a look at
      // the folders: a toast for each failed watch or rescan would only repeat it.
      if (event.payload.projectId && FOLDER_STATE_ERRORS.has(event.payload.error.code)) void s.checkProjects();
      else s.pushToast({ tone: 'error', message: event.payload.error.message });
      return;
    case 'connection':
      s.setConnectionLost(event.payload.state === 'lost');
      if (event.payload.state === 'restored') {
        // Events may have been missed while the history process was away: read everything again.
        void s.loadProjects();
        if (s.timelineStatus === 'ready') void s.loadTimeline();
        requestRefresh();
      }
      return;
    case 'appCommand':
      if (event.payload.command === 'openFolder') void s.openFolder(event.payload.path);
      else if (event.payload.command === 'showOpenFolder') s.setOpenDialog(true);
      else if (event.payload.command === 'exportHistory') void s.exportHistory();
      else if (event.payload.command === 'importHistory') s.setImportDialog(true);
      else if (event.payload.command === 'closeNotice') s.showCloseNotice();
      // A link may start the window: the project list it is checked against is read first.
      else if (event.payload.command === 'openLink') void s.loadProjects().then(() => showViewLink(useApp.getState, event.payload as ViewLink));
      else s.showProject(null);
      return;
    case 'recording':
      s.setRecording(event.payload);
      return;
  }
}

export function startLiveEvents(): () => void {
  setRefresher(refreshView);
  const stop = onEvent(routeEvent);
  return () => {
    stop();
    setRefresher(null);
  };
}
