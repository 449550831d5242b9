import { EXACT_NAMES, type NameRules } from '../../shared/nameFold.js';
import type { AppState } from './appState.js';

// How the shown project's folder compares names (ProjectSummary.nameRules, found by the engine):
// where it folds case or normalization, a name typed in another spelling is the recorded one, and
// two recorded names with one fold are one file there. Exact while the folder is not there.

/** The shown project's name rules (a selector: the object only changes with the project list). */
export function shownRules(s: Pick<AppState, 'projects' | 'currentProjectId'>): NameRules {
  return s.projects.find((p) => p.projectId === s.currentProjectId)?.nameRules ?? EXACT_NAMES;
}
