import type { OpenProjectResult, ProjectSummary, UnreadablePath } from '../../shared/contract.js';
import type { RecoveredRestore } from '../../shared/history.js';
import type { HindsightError } from '../../shared/errors.js';
import { asError, call, newOperationId } from '../api/hindsight.js';
import type { GetApp, SetApp, Slice } from './appState.js';
import { largeFolderFound, type LargeFolderFound } from './largeFolderFound.js';
import { dialogCopy, sayOpenFailed } from './openDialog.js';
import { upsert } from './projectList.js';

// Opening a folder: its first copy (or the rescan of a known one), what it could not read, the
// restores stopped midway it finished, and a large folder's stop for confirmation.

export interface ProjectOpening {
  /** What the last open of each project could not read (absent or empty: everything was read). */
  unreadable: Record<string, UnreadablePath[]>;
  /** Restores stopped midway that opens of each project completed or rolled back, until dismissed. */
  recoveredRestores: Record<string, RecoveredRestore[]>;
  /** A first copy that stopped at the large-folder settings (CONFIRM_LARGE_FOLDER): what was found. */
  largeFolder: LargeFolderFound | null;
  openFolder(path: string, options?: { show?: boolean; confirmLarge?: boolean }): Promise<boolean>;
  /** Copies the large folder after all (the open again, with the limit lifted). */
  confirmLargeFolder(): Promise<void>;
  cancelLargeFolder(): void;
  /** A known project: its history shows at once; the folder is opened (rescanned) behind it. */
  openKnown(project: ProjectSummary): void;
  dismissUnreadable(projectId: string): void;
  dismissRecoveredRestores(projectId: string): void;
}

/** Failures that the project's state banner already explains. */
export const FOLDER_STATE_ERRORS: ReadonlySet<string> = new Set(['FOLDER_NOT_FOUND', 'FOLDER_VANISHED', 'FOLDER_REPLACED']);

export const createProjectOpening: Slice<ProjectOpening> = (set, get) => ({
  unreadable: {},
  recoveredRestores: {},
  largeFolder: null,
  openFolder: (path, { show = true, confirmLarge = false } = {}) => openFolder(set, get, path, show, confirmLarge),
  confirmLargeFolder: async () => {
    const found = get().largeFolder;
    if (!found) return;
    set({ largeFolder: null });
    await get().openFolder(found.path, { confirmLarge: true });
  },
  cancelLargeFolder: () => set({ largeFolder: null }),
  openKnown: (project) => {
    get().showProject(project.projectId);
    // Shown at once from its history; opened behind it once the look at its folder says it is there.
    void get().checkProjects();
  },
  dismissUnreadable: (projectId) => set((s) => ({ unreadable: { ...s.unreadable, [projectId]: [] } })),
  dismissRecoveredRestores: (projectId) => set((s) => ({ recoveredRestores: { ...s.recoveredRestores, [projectId]: [] } })),
});

function openFolder(set: SetApp, get: GetApp, path: string, show: boolean, confirmLarge: boolean): Promise<boolean> {
  const operationId = newOperationId('open');
  const known = get().projects.some((p) => p.root === path);
  return dialogCopy(set, get, operationId, { path, known }, async () => {
    try {
      const opened = await call('openProject', { path, operationId, ...(confirmLarge ? { confirmLarge } : {}) });
      noteOpened(set, get, operationId, opened, show);
      return true;
    } catch (error) {
      openFailed(set, get, path, show, asError(error));
      return false;
    }
  });
}

function noteOpened(set: SetApp, get: GetApp, operationId: string, opened: OpenProjectResult, show: boolean): void {
  get().completeCopy(operationId, opened);
  set((s) => ({
    projects: upsert(s.projects, opened.project),
    openDialogVisible: s.dialogOperation === operationId ? false : s.openDialogVisible,
    unreadable: { ...s.unreadable, [opened.projectId]: opened.unreadable },
    // Each is told once, by the open that finished it: kept until dismissed.
    recoveredRestores:
      opened.recoveredRestores.length === 0
        ? s.recoveredRestores
        : { ...s.recoveredRestores, [opened.projectId]: [...(s.recoveredRestores[opened.projectId] ?? []), ...opened.recoveredRestores] },
  }));
  // Shown already (a known project opened behind its history): what the rescan recorded came
  // as events and refreshes the view; nothing to read again here.
  if (show) get().showProject(opened.projectId);
  void get().loadProjects();
}

function openFailed(set: SetApp, get: GetApp, path: string, show: boolean, err: HindsightError): void {
  if (err.code === 'CONFIRM_LARGE_FOLDER') {
    // Nothing was kept: ask, showing what was found, instead of failing.
    set({ largeFolder: largeFolderFound(path, err.details), openDialogVisible: false });
  } else if (err.code === 'CANCELLED') {
    get().pushToast({ tone: 'info', message: `The first copy of ${path} was cancelled. Files already copied are kept for next time.` });
  } else {
    // A known folder that is gone or replaced has its banner (the engine announced its state):
    // a toast on every click would only repeat it.
    sayOpenFailed(set, get, err.message, !show && FOLDER_STATE_ERRORS.has(err.code));
  }
}
