import { readLinkedFile } from '../../shared/viewLink.js';
import { PROJECT_VIEWS, type ProjectView } from '../stores/projectsSlice.js';
import { useApp } from '../stores/appStore.js';
import { showViewLink } from '../stores/linkedLine.js';

// The open project and tab live in the page's address (#project=ID&view=timeline), so reloading
// the window comes back to them. replaceState: switching projects adds no history entries. A deep
// link (shared/viewLink.ts: #project=ID&path=P&line=N, what `hindsight view` opens) names a file
// and line too: shown once, at the start, and only in a project the viewer already knows.

export interface ViewLocation {
  projectId: string | null;
  view: ProjectView;
}

export function readLocation(hash: string = window.location.hash): ViewLocation {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const view = params.get('view') as ProjectView | null;
  return { projectId: params.get('project'), view: view && PROJECT_VIEWS.includes(view) ? view : 'files' };
}

export function locationHash({ projectId, view }: ViewLocation): string {
  if (!projectId) return '';
  const params = new URLSearchParams({ project: projectId });
  if (view !== 'files') params.set('view', view);
  return `#${params.toString()}`;
}

/** Keeps the address in step with the store; returns the unsubscribe function. */
export function followLocation(): () => void {
  return useApp.subscribe((state, before) => {
    if (state.currentProjectId === before.currentProjectId && state.view === before.view) return;
    const hash = locationHash({ projectId: state.currentProjectId, view: state.view });
    if (hash === window.location.hash) return;
    const url = `${window.location.pathname}${window.location.search}${hash}`;
    window.history.replaceState(window.history.state, '', url);
  });
}

/** After the project list is loaded: the project and tab (or file and line) the address names, if it is still known. */
export function restoreLocation(hash: string = window.location.hash): boolean {
  const { projectId, view } = readLocation(hash);
  if (projectId === null) return false;
  const linked = readLinkedFile(hash);
  if (!showViewLink(useApp.getState, { projectId, ...linked })) return false;
  if (linked.path === null) useApp.getState().setView(view);
  return true;
}
