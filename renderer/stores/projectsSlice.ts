import type { ProjectState, ProjectSummary, UnreadablePath } from '../../shared/contract.js';
import type { HindsightErrorData } from '../../shared/errors.js';
import { asError, call, chooseFolder, hasNativeDialogs, newOperationId } from '../api/hindsight.js';
import type { Slice } from './appState.js';

// Known projects (from config.json), which one is shown, and opening folders. Where each folder
// stands (present, moved, gone) is looked at again when the app starts, when a project is chosen
// and when the window comes back to the front (checkProjects): a folder that comes back is
// present again and opened behind its history, one that went away gets its banner (no toast).

// The project screen's tabs in their order: Ctrl+1..4 and the page address follow this list.
export const PROJECT_VIEWS = ['files', 'timeline', 'store', 'search'] as const;
export type ProjectView = (typeof PROJECT_VIEWS)[number];

export interface ProjectsSlice {
  projects: ProjectSummary[];
  projectsLoaded: boolean;
  /** config.json is corrupt or unreadable: the banner names its backup. */
  configError: HindsightErrorData | null;
  /** The bridge to the history process is down (it died and is restarting). */
  connectionLost: boolean;
  currentProjectId: string | null;
  view: ProjectView;
  openDialogVisible: boolean;
  openError: string | null;
  /** Why the open dialog was shown (a drop whose path the browser hides). */
  openHint: string | null;
  /** The copy the open dialog started: the dialog closes once it is under way. */
  dialogOperation: string | null;
  /** What the last open of each project could not read (absent or empty: everything was read). */
  unreadable: Record<string, UnreadablePath[]>;
  /** The open dialog is finding a moved project's folder (Locate…), not opening a new one. */
  locateFor: string | null;
  loadProjects(): Promise<void>;
  /** A first copy that stopped at the large-folder settings (CONFIRM_LARGE_FOLDER): what was found. */
  largeFolder: LargeFolderFound | null;
  openFolder(path: string, options?: { show?: boolean; confirmLarge?: boolean }): Promise<boolean>;
  /** Copies the large folder after all (the open again, with the limit lifted). */
  confirmLargeFolder(): Promise<void>;
  cancelLargeFolder(): void;
  /** A known project: its history shows at once; the folder is opened (rescanned) behind it. */
  openKnown(project: ProjectSummary): void;
  showProject(projectId: string | null): void;
  /** Looks at every known folder now (the engine records and announces what changed). */
  checkProjects(): Promise<void>;
  /** A moved project's folder, found by the user: its history moves there and it opens. */
  locateProject(projectId: string, path: string): Promise<boolean>;
  /** Asks for the new place of a moved project's folder (native dialog, else the in-app one). */
  promptLocate(projectId: string): Promise<void>;
  /** Takes a project off the list (its history stays on disk). */
  removeProject(projectId: string): Promise<void>;
  setView(view: ProjectView): void;
  setOpenDialog(visible: boolean): void;
  showOpenHint(hint: string): void;
  projectStateChanged(projectId: string, root: string, state: ProjectState): void;
  setConnectionLost(lost: boolean): void;
  dismissUnreadable(projectId: string): void;
}

export const createProjectsSlice: Slice<ProjectsSlice> = (set, get) => ({
  projects: [],
  projectsLoaded: false,
  configError: null,
  connectionLost: false,
  currentProjectId: null,
  view: 'files',
  openDialogVisible: false,
  openError: null,
  openHint: null,
  dialogOperation: null,
  unreadable: {},
  locateFor: null,
  largeFolder: null,

  loadProjects: async () => {
    try {
      const config = await call('getConfig', {});
      set({ projects: sortRecent(config.projects), configError: config.error, projectsLoaded: true });
    } catch (error) {
      const err = asError(error);
      if (err.code.startsWith('CONFIG_')) {
        set({ projectsLoaded: true, configError: err.toJSON() });
        return;
      }
      // A host without the config yet still knows its projects.
      try {
        set({ projects: sortRecent(await call('listProjects', {})), projectsLoaded: true });
      } catch (fallback) {
        set({ projectsLoaded: true });
        get().pushToast({ tone: 'error', message: asError(fallback).message });
      }
    }
  },

  openFolder: async (path, { show = true, confirmLarge = false } = {}) => {
    const operationId = newOperationId('open');
    set({ openError: null, dialogOperation: get().openDialogVisible ? operationId : null });
    get().beginCopy(
      operationId,
      path,
      get().projects.some((p) => p.root === path),
    );
    try {
      const opened = await call('openProject', { path, operationId, ...(confirmLarge ? { confirmLarge } : {}) });
      get().completeCopy(operationId, opened);
      set((s) => ({
        projects: upsert(s.projects, opened.project),
        openDialogVisible: s.dialogOperation === operationId ? false : s.openDialogVisible,
        unreadable: { ...s.unreadable, [opened.projectId]: opened.unreadable },
      }));
      // Shown already (a known project opened behind its history): what the rescan recorded came
      // as events and refreshes the view; nothing to read again here.
      if (show) get().showProject(opened.projectId);
      void get().loadProjects();
      return true;
    } catch (error) {
      const err = asError(error);
      if (err.code === 'CONFIRM_LARGE_FOLDER') {
        // Nothing was kept: ask, showing what was found, instead of failing.
        set({ largeFolder: largeFolderFound(path, err.details), openDialogVisible: false });
      } else if (err.code === 'CANCELLED') {
        get().pushToast({ tone: 'info', message: `The first copy of ${path} was cancelled. Files already copied are kept for next time.` });
      } else {
        set({ openError: err.message });
        // A known folder that is gone or replaced has its banner (the engine announced its state):
        // a toast on every click would only repeat it.
        const banner = !show && FOLDER_STATE_ERRORS.has(err.code);
        if (!get().openDialogVisible && !banner) get().pushToast({ tone: 'error', message: err.message });
      }
      return false;
    } finally {
      get().endCopy(operationId);
      if (get().dialogOperation === operationId) set({ dialogOperation: null });
    }
  },

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

  checkProjects: () => {
    checking ??= (async () => {
      try {
        const listed = await call('listProjects', {});
        set((s) => ({ projects: sortRecent(listed.map((p) => ({ ...p, name: s.projects.find((q) => q.projectId === p.projectId)?.name ?? p.name }))) }));
        const current = get().projects.find((p) => p.projectId === get().currentProjectId);
        if (current && current.state === 'present' && !current.open && !opening.has(current.projectId)) {
          opening.add(current.projectId);
          void get()
            .openFolder(current.root, { show: false })
            .finally(() => opening.delete(current.projectId));
        }
      } catch (error) {
        get().pushToast({ tone: 'error', message: asError(error).message });
      } finally {
        checking = null;
      }
    })();
    return checking;
  },

  locateProject: async (projectId, path) => {
    const operationId = newOperationId('locate');
    set({ openError: null, dialogOperation: get().openDialogVisible ? operationId : null });
    get().beginCopy(operationId, path);
    try {
      const moved = await call('relocateProject', { projectId, path, operationId });
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
      return true;
    } catch (error) {
      const err = asError(error);
      set({ openError: err.message });
      if (!get().openDialogVisible) get().pushToast({ tone: 'error', message: err.message });
      return false;
    } finally {
      get().endCopy(operationId);
      if (get().dialogOperation === operationId) set({ dialogOperation: null });
    }
  },

  promptLocate: async (projectId) => {
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
  },

  removeProject: async (projectId) => {
    try {
      // Closed first: a project this process opened stays listed until it is closed.
      await call('closeProject', { projectId }).catch(() => null);
      const config = await call('editConfig', { projects: [{ projectId, forget: true }] });
      set({ projects: sortRecent(config.projects) });
      if (get().currentProjectId === projectId) get().showProject(null);
    } catch (error) {
      get().pushToast({ tone: 'error', message: asError(error).message });
    }
  },

  showProject: (projectId) => {
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
  },

  setView: (view) => {
    set({ view });
    const projectId = get().currentProjectId;
    if (projectId) get().settleFinished(projectId);
  },
  setOpenDialog: (visible) => set({ openDialogVisible: visible, openError: null, openHint: null, locateFor: null }),
  showOpenHint: (hint) => set({ openDialogVisible: true, openError: null, openHint: hint }),

  projectStateChanged: (projectId, root, state) => set((s) => ({ projects: s.projects.map((p) => (p.projectId === projectId ? { ...p, root, state } : p)) })),

  setConnectionLost: (lost) => set({ connectionLost: lost }),
  dismissUnreadable: (projectId) => set((s) => ({ unreadable: { ...s.unreadable, [projectId]: [] } })),
});

export interface LargeFolderFound {
  /** The folder as it was asked for (opened again as is when confirmed). */
  path: string;
  root: string;
  files: number;
  bytes: number;
  limitFiles: number | null;
  limitBytes: number | null;
}

function largeFolderFound(path: string, details: Record<string, unknown> | undefined): LargeFolderFound {
  const num = (v: unknown) => (typeof v === 'number' ? v : null);
  return {
    path,
    root: typeof details?.root === 'string' ? details.root : path,
    files: num(details?.files) ?? 0,
    bytes: num(details?.bytes) ?? 0,
    limitFiles: num(details?.limitFiles),
    limitBytes: num(details?.limitBytes),
  };
}

/** Failures that the project's state banner already explains. */
export const FOLDER_STATE_ERRORS: ReadonlySet<string> = new Set(['FOLDER_NOT_FOUND', 'FOLDER_VANISHED', 'FOLDER_REPLACED']);

/** The look at the folders in flight (one at a time), and the known projects being opened behind. */
let checking: Promise<void> | null = null;
const opening = new Set<string>();

function upsert(projects: ProjectSummary[], project: ProjectSummary): ProjectSummary[] {
  const rest = projects.filter((p) => p.projectId !== project.projectId);
  return sortRecent([...rest, project]);
}

/** Pinned first, then the most recently opened. */
function sortRecent(projects: ProjectSummary[]): ProjectSummary[] {
  return [...projects].sort((a, b) => Number(b.pinned) - Number(a.pinned) || (b.lastOpenedAt ?? 0) - (a.lastOpenedAt ?? 0));
}
