// What the file filter matches. A pattern with *, ? or [...] is a glob: `*.h` matches names at
// any depth, `src/**/*.c` matches paths from the project's top (`**` spans folders), a pattern
// ending in `/` matches everything in that folder. Anything else is plain text: the paths that
// contain it; and when none does, the names that contain its letters in order, so `addc` finds
// add.c (with a `/` in it, whole paths: `bi/add` finds builtin/add.c). Case is ignored, and so is
// Unicode normalization: `café` typed composed finds a name macOS wrote decomposed.

import { foldName, type NameRules } from '../../../shared/nameFold.js';
import { globMatcher, type FileMatcher } from '../../../shared/pathGlob.js';

export { globMatcher, type FileMatcher };

export type FilterKind = 'glob' | 'text' | 'fuzzy';

export interface CompiledFilter {
  kind: FilterKind;
  matches: FileMatcher;
}

const GLOB_CHARS = /[*?[]/;

/**
 * The matcher for a filter as typed, or null when there is nothing to filter by. `paths` are the
 * files it will be asked about: plain text falls back to letters in order only when no path
 * contains the text itself.
 */
export function compileFilter(filter: string, paths: Iterable<string>): CompiledFilter | null {
  const typed = filter.trim();
  if (typed === '') return null;
  if (GLOB_CHARS.test(typed) || typed.endsWith('/')) return { kind: 'glob', matches: globMatcher(typed) };
  const needle = folded(typed);
  const text: FileMatcher = (path) => folded(path).includes(needle);
  for (const path of paths) if (text(path)) return { kind: 'text', matches: text };
  return { kind: 'fuzzy', matches: fuzzyMatcher(needle) };
}

const ANY_FOLDER: NameRules = { foldsCase: true, foldsNormalization: true };

/** What the filter compares: case and normalization folded as APFS does (shared/nameFold.ts). */
function folded(text: string): string {
  return foldName(text, ANY_FOLDER);
}

/** The letters of `needle` in order in the name (or, with a slash in it, in the whole path). */
export function fuzzyMatcher(needle: string): FileMatcher {
  const lower = folded(needle);
  const onPath = lower.includes('/');
  return (path) => {
    const hay = folded(onPath ? path : path.slice(path.lastIndexOf('/') + 1));
    let at = 0;
    for (const ch of lower) {
      at = hay.indexOf(ch, at);
      if (at < 0) return false;
      at++;
    }
    return true;
  };
}
