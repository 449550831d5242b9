import type { Slice } from './appState.js';
import { createOpenDialog, type OpenDialog } from './openDialog.js';
import { createProjectList, type ProjectList } from './projectList.js';
import { createProjectLocating, type ProjectLocating } from './projectLocating.js';
import { createProjectOpening, type ProjectOpening } from './projectOpening.js';
import { createShownProject, type ShownProject } from './shownProject.js';

export { FOLDER_STATE_ERRORS } from './projectOpening.js';

// Known projects (from config.json), which one is shown, and opening folders, made of one part
// each: the list and where each folder stands (projectList.ts), the shown project and tab
// (shownProject.ts), the open dialog (openDialog.ts), opening a folder (projectOpening.ts) and
// finding a moved one (projectLocating.ts).

// The project screen's tabs in their order: Ctrl+1..4 and the page address follow this list.
export const PROJECT_VIEWS = ['files', 'timeline', 'store', 'search'] as const;
export type ProjectView = (typeof PROJECT_VIEWS)[number];

export interface ProjectsSlice extends ProjectList, ShownProject, OpenDialog, ProjectOpening, ProjectLocating {
  /** The bridge to the history process is down (it died and is restarting). */
  connectionLost: boolean;
  setConnectionLost(lost: boolean): void;
}

export const createProjectsSlice: Slice<ProjectsSlice> = (set, get, store) => ({
  ...createProjectList(set, get, store),
  ...createShownProject(set, get, store),
  ...createOpenDialog(set, get, store),
  ...createProjectOpening(set, get, store),
  ...createProjectLocating(set, get, store),
  connectionLost: false,
  setConnectionLost: (lost) => set({ connectionLost: lost }),
});
