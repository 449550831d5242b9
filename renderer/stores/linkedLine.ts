import type { ViewLink } from '../../shared/viewLink.js';
import type { GetApp, SetApp } from './appState.js';
import type { VersionsSlice } from './versionsSlice.js';

// A file and line named by a deep link (`hindsight view FOLDER PATH:LINE`, the address's
// #project=…&path=…&line=…): the Files view shows that file's newest version, with the line
// marked and scrolled to, until another file is chosen.

export interface LinkedLine {
  path: string;
  line: number;
}

type Linked = Pick<VersionsSlice, 'openLinkedFile'>;

export function linkedLine(set: SetApp, get: GetApp): Linked {
  return {
    openLinkedFile: (path, line) => {
      set({ view: 'files', compareWith: 'none', searchHighlight: null });
      get().selectPath(path);
      set({ linkedLine: line === null ? null : { path, line } });
    },
  };
}

/**
 * Shows what a link names (a hindsight:// link, or the address at the start): only a project the
 * viewer already knows; false for any other, which is left as it was.
 */
export function showViewLink(get: GetApp, link: ViewLink): boolean {
  const s = get();
  const project = s.projects.find((p) => p.projectId === link.projectId);
  if (!project) return false;
  s.openKnown(project);
  if (link.path !== null) s.openLinkedFile(link.path, link.line);
  return true;
}
