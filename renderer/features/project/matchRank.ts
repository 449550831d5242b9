import { EXACT_NAMES, foldName, sameName, type NameRules } from '../../../shared/nameFold.js';

// Which of the files a filter shows Down or Enter goes to: the name typed exactly first, then a
// name starting with it, then any other match; among equals the first in the list. So
// "helpers.py" then Enter opens helpers.py, not debughelpers.py shown above it. "Exactly" is as
// the project's folder compares names (its rules: ProjectSummary.nameRules): where it folds case,
// README.MD is README.md; where it does not, readme.md typed opens readme.md, not a Readme.md
// listed above it. Otherwise case and normalization are ignored, as the filter ignores them; a
// filter with a slash compares the end of the path with as many names as it has (`b/x.c`: the
// file x.c in a folder b). A glob ranks every match alike.

/** 0: the name typed exactly; 1: a name starting with it; 2: any other match. */
export type MatchRank = 0 | 1 | 2;

const ANY_SPELLING: NameRules = { foldsCase: true, foldsNormalization: true };

export function matchRank(filter: string, path: string, rules: NameRules = EXACT_NAMES): MatchRank {
  const typed = filter.trim();
  const names = typed.split('/').length;
  const parts = path.split('/');
  const tail = parts.slice(Math.max(0, parts.length - names)).join('/');
  if (sameName(tail, typed, rules)) return 0;
  return foldName(tail, ANY_SPELLING).startsWith(foldName(typed, ANY_SPELLING)) ? 1 : 2;
}

/** The index of the best ranked of `paths` (null ones are not files and never chosen), or -1 when there is none. */
export function bestMatch(filter: string, paths: readonly (string | null)[], rules: NameRules = EXACT_NAMES): number {
  let best = -1;
  let bestRank = 3;
  for (let i = 0; i < paths.length && bestRank > 0; i++) {
    const path = paths[i];
    if (path === null || path === undefined) continue;
    const rank = matchRank(filter, path, rules);
    if (rank < bestRank) [best, bestRank] = [i, rank];
  }
  return best;
}
