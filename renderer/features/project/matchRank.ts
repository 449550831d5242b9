// Which of the files a filter shows Down or Enter goes to: the name typed exactly first, then a
// name starting with it, then any other match; among equals the first in the list. So
// "helpers.py" then Enter opens helpers.py, not debughelpers.py shown above it. Case is ignored;
// a filter with a slash compares the end of the path with as many names as it has (`b/x.c`: the
// file x.c in a folder b). A glob ranks every match alike.

/** 0: the name typed exactly; 1: a name starting with it; 2: any other match. */
export type MatchRank = 0 | 1 | 2;

export function matchRank(filter: string, path: string): MatchRank {
  const typed = filter.trim().toLowerCase();
  const names = typed.split('/').length;
  const parts = path.toLowerCase().split('/');
  const tail = parts.slice(Math.max(0, parts.length - names)).join('/');
  if (tail === typed) return 0;
  return tail.startsWith(typed) ? 1 : 2;
}

/** The index of the best ranked of `paths` (null ones are not files and never chosen), or -1 when there is none. */
export function bestMatch(filter: string, paths: readonly (string | null)[]): number {
  let best = -1;
  let bestRank = 3;
  for (let i = 0; i < paths.length && bestRank > 0; i++) {
    const path = paths[i];
    if (path === null || path === undefined) continue;
    const rank = matchRank(filter, path);
    if (rank < bestRank) [best, bestRank] = [i, rank];
  }
  return best;
}
