import { displayPath } from './fileNameBytes.js';
import type { VersionInfo } from './history.js';

// What a version says beyond its origin, one wording for the CLI's listing and the viewer's
// version list: what git did, in the timeline's words, and the mark of the version a rename brought.

/** "Checked out `a1b2c3d` Fix the parser, on main" for a version git wrote; null for any other. */
export function gitTitle(v: Pick<VersionInfo, 'origin' | 'label'>): string | null {
  return v.origin.kind === 'git' && v.origin.gitWhen === 'after' && v.label ? v.label : null;
}

/** The mark of the version a rename brought: the older versions listed below it are the old path's. */
export function renamedText(fromPath: string): string {
  return `Renamed from ${displayPath(fromPath)}`;
}
