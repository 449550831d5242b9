import type { HindsightEvent } from '../../shared/contract.js';
import { onEvent } from '../api/hindsight.js';
import { useApp } from './appStore.js';

// Events from the history process, routed into the store: progress to its operation, a new
// snapshot to whatever the current project shows (so edits appear without a reload), folder
// state changes to the project list. Refreshes after a burst of snapshots are coalesced.

const REFRESH_DELAY_MS = 150;
let refreshTimer: ReturnType<typeof setTimeout> | null = null;

function scheduleRefresh(): void {
  if (refreshTimer) return;
  refreshTimer = setTimeout(() => {
    refreshTimer = null;
    const s = useApp.getState();
    void s.loadTree();
    if (s.versionsPath) void s.loadVersions(s.versionsPath, true);
    if (s.timelineStatus === 'ready') void s.loadTimeline();
    if (s.stats) void s.loadStats();
  }, REFRESH_DELAY_MS);
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
      if (event.payload.projectId === s.currentProjectId) scheduleRefresh();
      return;
    case 'projectState':
      s.projectStateChanged(event.payload.projectId, event.payload.root, event.payload.state);
      return;
    case 'error':
      s.pushToast({ tone: 'error', message: event.payload.error.message });
      return;
    case 'connection':
      s.setConnectionLost(event.payload.state === 'lost');
      if (event.payload.state === 'restored') {
        void s.loadProjects();
        scheduleRefresh();
      }
      return;
    case 'appCommand':
      if (event.payload.command === 'openFolder') void s.openFolder(event.payload.path);
      else if (event.payload.command === 'showOpenFolder') s.setOpenDialog(true);
      else s.showProject(null);
      return;
  }
}

export function startLiveEvents(): () => void {
  return onEvent(routeEvent);
}
