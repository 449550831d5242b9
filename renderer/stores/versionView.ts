import type { DiffInputs, VersionInfo } from '../../shared/contract.js';
import { asError, call } from '../api/hindsight.js';
import type { GetApp, SetApp } from './appState.js';
import { currentComparison } from './currentComparison.js';

// What the content pane shows for the selected version: its contents alone, or its diff with
// what it is compared with (the disk, the version before, git's HEAD or INDEX, or the other of two
// versions picked in the list). An answer for a selection or comparison changed since is dropped.

/** Loads what the content pane shows for the current selection and comparison. */
export async function loadView(set: SetApp, get: GetApp): Promise<void> {
  const { currentProjectId: projectId, versionsPath: path, selectedVersionId: versionId, compareWith, versions } = get();
  if (!projectId || !path || versionId === null) return;
  const version = versions.find((v) => v.versionId === versionId);
  if (!version) return;
  const picks = get().comparePicks;
  const stale = () => get().selectedVersionId !== versionId || get().versionsPath !== path || get().compareWith !== compareWith || get().comparePicks !== picks;
  const view = picks.length < 2 && compareWith === 'none' ? loadContent : loadDiff;
  await view(set, get, { projectId, path, version }, stale);
}

interface Shown {
  projectId: string;
  path: string;
  version: VersionInfo;
}

async function loadContent(set: SetApp, _get: GetApp, { projectId, path, version }: Shown, stale: () => boolean): Promise<void> {
  if (version.hash === null) {
    set({ content: null, contentStatus: 'ready', contentError: null, diff: null });
    return;
  }
  set({ contentStatus: 'loading', contentError: null, diff: null });
  try {
    const content = await call('readVersion', { projectId, path, versionId: version.versionId });
    if (!stale()) set({ content, contentStatus: 'ready' });
  } catch (error) {
    if (!stale()) set({ content: null, contentStatus: 'error', contentError: asError(error).toJSON() });
  }
}

async function loadDiff(set: SetApp, get: GetApp, shown: Shown, stale: () => boolean): Promise<void> {
  const picks = get().comparePicks;
  set({ diffError: null, ...(picks.length === 2 ? { diff: null } : {}) });
  try {
    if (needsOlderPage(get, shown.version)) await get().loadOlderVersions();
    const diff = await diffOf(get, shown);
    if (diff && !stale()) set({ diff });
  } catch (error) {
    if (!stale()) set({ diff: null, diffError: asError(error).toJSON() });
  }
}

/** Compared with the version before it, which is on the next page: that page is read first. */
function needsOlderPage(get: GetApp, version: VersionInfo): boolean {
  const { comparePicks, compareWith, versions, versionsMore } = get();
  return comparePicks.length < 2 && compareWith === 'previous' && !versions[versions.indexOf(version) + 1] && versionsMore;
}

async function diffOf(get: GetApp, { projectId, path, version }: Shown): Promise<DiffInputs | null> {
  const sides = currentComparison(get());
  if (!sides) return null;
  const { side: before } = sides.before;
  const { side: after } = sides.after;
  if (before && after) return call('diffInputs', { projectId, path, before, after });
  return { path, before: null, after: version.hash === null ? null : await call('readVersion', { projectId, path, versionId: version.versionId }) };
}
