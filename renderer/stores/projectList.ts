import type { ProjectState, ProjectSummary } from '../../shared/contract.js';
import type { HindsightErrorData } from '../../shared/errors.js';
import { asError, call } from '../api/hindsight.js';
import type { GetApp, SetApp, Slice } from './appState.js';

// The known projects (from config.json) and where each one's folder stands. That (present, moved,
// gone) is looked at again when the app starts, when a project is chosen and when the window comes
// back to the front (checkProjects): a folder that comes back is present again and opened behind
// its history, one that went away gets its banner (no toast).

export interface ProjectList {
  projects: ProjectSummary[];
  projectsLoaded: boolean;
  /** config.json is corrupt or unreadable: the banner names its backup. */
  configError: HindsightErrorData | null;
  loadProjects(): Promise<void>;
  /** Looks at every known folder now (the engine records and announces what changed). */
  checkProjects(): Promise<void>;
  /** Takes a project off the list (its history stays on disk). */
  removeProject(projectId: string): Promise<void>;
  projectStateChanged(projectId: string, root: string, state: ProjectState): void;
}

export const createProjectList: Slice<ProjectList> = (set, get) => ({
  projects: [],
  projectsLoaded: false,
  configError: null,
  loadProjects: () => loadProjects(set, get),
  checkProjects: () => (checking ??= checkFolders(set, get)),
  removeProject: (projectId) => removeProject(set, get, projectId),
  projectStateChanged: (projectId, root, state) => set((s) => ({ projects: s.projects.map((p) => (p.projectId === projectId ? { ...p, root, state } : p)) })),
});

/** The look at the folders in flight (one at a time), and the known projects being opened behind. */
let checking: Promise<void> | null = null;
const opening = new Set<string>();

async function loadProjects(set: SetApp, get: GetApp): Promise<void> {
  try {
    const config = await call('getConfig', {});
    set({ projects: sortRecent(config.projects), configError: config.error, projectsLoaded: true });
  } catch (error) {
    const err = asError(error);
    if (err.code.startsWith('CONFIG_')) set({ projectsLoaded: true, configError: err.toJSON() });
    else await listProjectsInstead(set, get);
  }
}

/** A host without the config yet still knows its projects. */
async function listProjectsInstead(set: SetApp, get: GetApp): Promise<void> {
  try {
    set({ projects: sortRecent(await call('listProjects', {})), projectsLoaded: true });
  } catch (fallback) {
    set({ projectsLoaded: true });
    get().pushToast({ tone: 'error', message: asError(fallback).message });
  }
}

async function checkFolders(set: SetApp, get: GetApp): Promise<void> {
  try {
    const listed = await call('listProjects', {});
    set((s) => ({ projects: sortRecent(listed.map((p) => ({ ...p, name: s.projects.find((q) => q.projectId === p.projectId)?.name ?? p.name }))) }));
    openShownBehind(get);
  } catch (error) {
    get().pushToast({ tone: 'error', message: asError(error).message });
  } finally {
    checking = null;
  }
}

/** The shown project's folder is there and not open: it is opened behind its history. */
function openShownBehind(get: GetApp): void {
  const current = get().projects.find((p) => p.projectId === get().currentProjectId);
  if (!current || current.state !== 'present' || current.open || opening.has(current.projectId)) return;
  opening.add(current.projectId);
  void get()
    .openFolder(current.root, { show: false })
    .finally(() => opening.delete(current.projectId));
}

async function removeProject(set: SetApp, get: GetApp, projectId: string): Promise<void> {
  try {
    // Closed first: a project this process opened stays listed until it is closed.
    await call('closeProject', { projectId }).catch(() => null);
    const config = await call('editConfig', { projects: [{ projectId, forget: true }] });
    set({ projects: sortRecent(config.projects) });
    if (get().currentProjectId === projectId) get().showProject(null);
  } catch (error) {
    get().pushToast({ tone: 'error', message: asError(error).message });
  }
}

/** The list with `project` in it (in place of its older entry), in order. */
export function upsert(projects: ProjectSummary[], project: ProjectSummary): ProjectSummary[] {
  const rest = projects.filter((p) => p.projectId !== project.projectId);
  return sortRecent([...rest, project]);
}

/** Pinned first, then the most recently opened. */
function sortRecent(projects: ProjectSummary[]): ProjectSummary[] {
  return [...projects].sort((a, b) => Number(b.pinned) - Number(a.pinned) || (b.lastOpenedAt ?? 0) - (a.lastOpenedAt ?? 0));
}
