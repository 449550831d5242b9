import type { OpenProjectResult } from '../../shared/contract.js';
import { asError, call, chooseFolder, hasNativeDialogs, newOperationId } from '../api/hindsight.js';
import type { GetApp, SetApp, Slice } from './appState.js';
import { dialogCopy, sayOpenFailed } from './openDialog.js';
import { upsert } from './projectList.js';

// A moved project's folder, found by the user (Locate…): its history follows it there.

export interface ProjectLocating {
  /** A moved project's folder, found by the user: its history moves there and it opens. */
  locateProject(projectId: string, path: string): Promise<boolean>;
  /** Asks for the new place of a moved project's folder (native dialog, else the in-app one). */
  promptLocate(projectId: string): Promise<void>;
}

export const createProjectLocating: Slice<ProjectLocating> = (set, get) => ({
  locateProject: (projectId, path) => locateProject(set, get, projectId, path),
  promptLocate: (projectId) => promptLocate(set, get, projectId),
});

function locateProject(set: SetApp, get: GetApp, projectId: string, path: string): Promise<boolean> {
  const operationId = newOperationId('locate');
  return dialogCopy(set, get, operationId, { path }, async () => {
    try {
      noteLocated(set, get, projectId, await call('relocateProject', { projectId, path, operationId }));
      return true;
    } catch (error) {
      sayOpenFailed(set, get, asError(error).message);
      return false;
    }
  });
}

function noteLocated(set: SetApp, get: GetApp, projectId: string, moved: OpenProjectResult): void {
  set((s) => ({
    projects: upsert(
      s.projects.filter((p) => p.projectId !== projectId),
      moved.project,
    ),
    openDialogVisible: false,
    locateFor: null,
  }));
  const view = get().view;
  if (get().currentProjectId === projectId || get().currentProjectId === null) {
    get().showProject(moved.projectId);
    get().setView(view);
  }
  get().pushToast({ tone: 'info', message: `Found: the history now follows ${moved.root}.` });
}

async function promptLocate(set: SetApp, get: GetApp, projectId: string): Promise<void> {
  if (!hasNativeDialogs()) {
    set({ openDialogVisible: true, openError: null, openHint: null, locateFor: projectId });
    return;
  }
  try {
    const folder = await chooseFolder();
    if (folder) await get().locateProject(projectId, folder);
  } catch (error) {
    get().pushToast({ tone: 'error', message: asError(error).message });
  }
}
