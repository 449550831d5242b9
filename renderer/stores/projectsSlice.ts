import type { ProjectState, ProjectSummary, UnreadablePath } from '../../shared/contract.js';
import type { HindsightErrorData } from '../../shared/errors.js';
import { asError, call, newOperationId } from '../api/hindsight.js';
import type { Slice } from './appState.js';

// Known projects (from config.json), which one is shown, and opening folders.

export type ProjectView = 'files' | 'timeline' | 'store';

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
  loadProjects(): Promise<void>;
  openFolder(path: string, options?: { show?: boolean }): Promise<boolean>;
  /** A known project: its history shows at once; the folder is opened (rescanned) behind it. */
  openKnown(project: ProjectSummary): void;
  showProject(projectId: string | null): void;
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

  openFolder: async (path, { show = true } = {}) => {
    const operationId = newOperationId('open');
    set({ openError: null, dialogOperation: get().openDialogVisible ? operationId : null });
    get().beginCopy(operationId, path);
    try {
      const opened = await call('openProject', { path, operationId });
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
      if (err.code === 'CANCELLED') {
        get().pushToast({ tone: 'info', message: `The first copy of ${path} was cancelled. Files already copied are kept for next time.` });
      } else {
        set({ openError: err.message });
        if (!get().openDialogVisible) get().pushToast({ tone: 'error', message: err.message });
      }
      return false;
    } finally {
      get().endCopy(operationId);
      if (get().dialogOperation === operationId) set({ dialogOperation: null });
    }
  },

  openKnown: (project) => {
    get().showProject(project.projectId);
    if (!project.open) void get().openFolder(project.root, { show: false });
  },

  showProject: (projectId) => {
    if (projectId === get().currentProjectId) return;
    set({ currentProjectId: projectId, view: 'files' });
    get().resetTree();
    get().resetVersions();
    get().resetTimeline();
    get().resetStats();
    if (projectId) void get().loadTree();
  },

  setView: (view) => set({ view }),
  setOpenDialog: (visible) => set({ openDialogVisible: visible, openError: null, openHint: null }),
  showOpenHint: (hint) => set({ openDialogVisible: true, openError: null, openHint: hint }),

  projectStateChanged: (projectId, root, state) =>
    set((s) => ({ projects: s.projects.map((p) => (p.projectId === projectId ? { ...p, root, state } : p)) })),

  setConnectionLost: (lost) => set({ connectionLost: lost }),
  dismissUnreadable: (projectId) => set((s) => ({ unreadable: { ...s.unreadable, [projectId]: [] } })),
});

function upsert(projects: ProjectSummary[], project: ProjectSummary): ProjectSummary[] {
  const rest = projects.filter((p) => p.projectId !== project.projectId);
  return sortRecent([...rest, project]);
}

/** Pinned first, then the most recently opened. */
function sortRecent(projects: ProjectSummary[]): ProjectSummary[] {
  return [...projects].sort((a, b) => Number(b.pinned) - Number(a.pinned) || (b.lastOpenedAt ?? 0) - (a.lastOpenedAt ?? 0));
}
