import { PROJECT_VIEWS, type ProjectView } from '../stores/projectsSlice.js';

// The project's tabs, in the order Ctrl/Cmd+1…4 reaches them (shortcuts.ts takes the digit as a
// place in PROJECT_VIEWS): the tab strip, its tooltips and the shortcut sheet are all made from
// this list, so a key and the name shown for it cannot disagree.

const LABELS: Record<ProjectView, string> = { files: 'Files', timeline: 'Timeline', store: 'Store', search: 'Search' };

export interface ProjectTab {
  view: ProjectView;
  label: string;
  /** The digit held with Ctrl (⌘ on a Mac). */
  key: string;
}

export const PROJECT_TABS: readonly ProjectTab[] = PROJECT_VIEWS.map((view, i) => ({ view, label: LABELS[view], key: String(i + 1) }));
