import type { VersionInfo } from '../../shared/contract.js';
import { asError, call } from '../api/hindsight.js';
import { afterPaint } from './afterPaint.js';
import type { GetApp, SetApp } from './appState.js';
import { loadDisk, loadGit } from './versionMarks.js';
import { loadView } from './versionView.js';
import type { VersionsSlice } from './versionsSlice.js';

// The selected file's versions, a page at a time (newest first): the first page of a file
// clicked, the same number again on a refresh, the next older page when the list's end shows,
// and as many pages as it takes to list one version opened from elsewhere.

/** Versions read at a time: the first page paints at once however long the history is. */
export const VERSIONS_PAGE = 100;
const MAX_PAGE = 10_000;

type Pages = Pick<VersionsSlice, 'loadVersions' | 'loadOlderVersions' | 'openVersion' | 'revealVersion'>;

export function versionPages(set: SetApp, get: GetApp): Pages {
  return {
    loadVersions: (path, keepSelection = false) => loadVersions(set, get, path, keepSelection),
    loadOlderVersions: () => loadOlderVersions(set, get),
    openVersion: (path, versionId) => openVersion(set, get, path, versionId),
    revealVersion: (path, versionId) => revealVersion(set, get, path, versionId),
  };
}

async function loadVersions(set: SetApp, get: GetApp, path: string, keepSelection: boolean): Promise<void> {
  const projectId = get().currentProjectId;
  if (!projectId) return;
  const samePath = get().versionsPath === path;
  if (!samePath) showNewPath(set, get, path);
  // The newest page; a refresh reads as many as were shown (older pages the user opened stay).
  const limit = samePath ? Math.min(MAX_PAGE, Math.max(VERSIONS_PAGE, get().versions.length)) : VERSIONS_PAGE;
  // The list is what a click waits for. The file on disk (hashed) and git's versions (git
  // run) only mark its rows: asked before it, they were answered before it, and answered
  // before its first paint each drew every row again. A new file asks for them once the list
  // is painted; a refresh of the same file beside it.
  const page = call('versions', { projectId, path, limit });
  if (samePath) void loadDisk(set, get, projectId, path);
  try {
    const oldestFirst = await page;
    if (get().versionsPath !== path) return;
    set({ versionsMore: oldestFirst.length === limit });
    const shown = showPage(set, get, oldestFirst.slice().reverse(), keepSelection && samePath);
    afterPaint(() => whenPainted(set, get, { projectId, path, samePath, ...shown }));
  } catch (error) {
    if (get().versionsPath === path) set({ versionsStatus: 'error', versionsError: asError(error).toJSON() });
  }
}

/**
 * Once the list is painted: a new file's marks, and the selected version's contents (or diff), so
 * a click's first rows never wait for a CodeMirror view to be built. A selection made meanwhile
 * has loaded its own view.
 */
function whenPainted(
  set: SetApp,
  get: GetApp,
  { projectId, path, samePath, selected, keep }: { projectId: string; path: string; samePath: boolean; selected: number | null; keep: boolean },
): void {
  if (get().versionsPath !== path) return;
  if (!samePath) {
    void loadDisk(set, get, projectId, path);
    void loadGit(set, get, projectId, path);
  }
  if ((!keep || get().compareWith !== 'none') && get().selectedVersionId === selected) void loadView(set, get);
}

/** Another file: its list starts empty, and git's sides belong to the file they were asked for. */
function showNewPath(set: SetApp, get: GetApp, path: string): void {
  set({
    versionsPath: path,
    versions: [],
    versionsStatus: 'loading',
    versionsError: null,
    selectedVersionId: null,
    content: null,
    diff: null,
    contentStatus: 'idle',
    disk: null,
    gitVersions: null,
    comparePicks: [],
  });
  if (get().compareWith === 'head' || get().compareWith === 'index') set({ compareWith: 'none' });
}

/** Lists a page read (newest first), keeping the selection and picks still listed; answers what is selected. */
function showPage(set: SetApp, get: GetApp, versions: VersionInfo[], keepSelection: boolean): { selected: number | null; keep: boolean } {
  const previous = get().selectedVersionId;
  const keep = keepSelection && versions.some((v) => v.versionId === previous);
  const selected = keep ? previous : ((versions.find((v) => v.hash !== null) ?? versions[0])?.versionId ?? null);
  const comparePicks = get().comparePicks.filter((id) => versions.some((v) => v.versionId === id));
  set({
    versions,
    versionsStatus: 'ready',
    selectedVersionId: selected,
    comparePicks: comparePicks.length === get().comparePicks.length ? get().comparePicks : comparePicks,
  });
  return { selected, keep };
}

async function loadOlderVersions(set: SetApp, get: GetApp): Promise<void> {
  const { currentProjectId: projectId, versionsPath: path, versions, versionsMore, loadingOlder } = get();
  const oldest = versions.at(-1);
  if (!projectId || !path || !oldest || !versionsMore || loadingOlder) return;
  set({ loadingOlder: true });
  try {
    const page = await call('versions', { projectId, path, limit: VERSIONS_PAGE, before: oldest.versionId });
    if (get().versionsPath !== path || get().versions.at(-1) !== oldest) return;
    set((s) => ({ versions: [...s.versions, ...page.slice().reverse()], versionsMore: page.length === VERSIONS_PAGE }));
  } catch (error) {
    get().pushToast({ tone: 'error', message: asError(error).message });
  } finally {
    set({ loadingOlder: false });
  }
}

async function openVersion(set: SetApp, get: GetApp, path: string, versionId: number): Promise<void> {
  // A file deleted now is listed only with the deleted files shown: known from the deleted
  // list when it has arrived, else from the file's newest version once the versions are read.
  const deletedNow = get().deleted.some((d) => d.path === path);
  set({ view: 'files', selectedPath: path, compareWith: 'previous', comparePicks: [], ...(deletedNow ? { showDeleted: true } : {}) });
  await get().revealVersion(path, versionId);
  if (get().versionsPath === path && get().versions[0]?.hash === null && !get().showDeleted) set({ showDeleted: true });
}

async function revealVersion(set: SetApp, get: GetApp, path: string, versionId: number): Promise<void> {
  await get().loadVersions(path);
  const listed = () => get().versions.some((v) => v.versionId === versionId);
  // A version older than the first page: read older pages until its row is listed.
  while (get().versionsPath === path && !listed() && get().versionsMore) {
    const shown = get().versions.length;
    await get().loadOlderVersions();
    if (get().versions.length === shown) break;
  }
  if (get().versionsPath !== path || !listed()) return;
  get().selectVersion(versionId);
  set((s) => ({ revealed: s.revealed + 1 }));
}
