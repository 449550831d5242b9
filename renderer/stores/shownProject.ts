import type { GetApp, SetApp, Slice } from './appState.js';
import type { ProjectView } from './projectsSlice.js';

// Which project is shown and on which tab. Showing another project starts its screen afresh.

export interface ShownProject {
  currentProjectId: string | null;
  view: ProjectView;
  showProject(projectId: string | null): void;
  setView(view: ProjectView): void;
}

export const createShownProject: Slice<ShownProject> = (set, get) => ({
  currentProjectId: null,
  view: 'files',
  showProject: (projectId) => showProject(set, get, projectId),
  setView: (view) => {
    set({ view });
    const projectId = get().currentProjectId;
    if (projectId) get().settleFinished(projectId);
  },
});

function showProject(set: SetApp, get: GetApp, projectId: string | null): void {
  if (projectId === get().currentProjectId) return;
  // Completion lines of other projects' copies have been seen by now; the shown one's stays.
  set((s) => ({ currentProjectId: projectId, view: 'files', finished: s.finished.filter((f) => f.projectId === projectId) }));
  get().resetTree();
  get().resetVersions();
  get().resetTimeline();
  get().resetStats();
  get().resetRetention();
  get().resetSearch();
  if (projectId) void get().loadTree();
}
