import { HindsightError } from './errors.js';
import { readParams, writeParams } from './queryParams.js';
import { lineNumber, type ViewLink } from './viewLink.js';

// The app's `hindsight://open?path=/abs/file&line=12`. Any web page can fire such a URL, so it is
// read strictly and only ever navigates: to a file of a project the app already knows. It never
// opens a folder, records or restores. Pure string work: main parses, the history process's
// project list decides (knownTarget), the viewer shows (shared/viewLink.ts).

export const OPEN_LINK_SCHEME = 'hindsight';

export interface OpenLink {
  /** An absolute path as given (a project folder or a file in one). */
  path: string;
  line: number | null;
}

const MAX_LINK_LENGTH = 8192;

/** The path and line of a hindsight://open URL; anything else is a BAD_REQUEST. */
export function parseOpenLink(text: string): OpenLink {
  const refuse = (why: string): never => {
    throw new HindsightError('BAD_REQUEST', `Not a Hindsight link (${why}): hindsight://open?path=FILE&line=N is.`, { url: text.slice(0, 200) });
  };
  if (text.length > MAX_LINK_LENGTH) refuse('too long');
  // hindsight://open?… or hindsight:open?… (a trailing slash allowed); no fragment.
  const shape = /^([a-z][a-z0-9+.-]*):(?:\/\/)?([^?#]*)\?([^#]*)$/i.exec(text);
  if (shape === null) return refuse('not a URL with a query');
  const [, scheme, action, query] = shape as unknown as [string, string, string, string];
  if (scheme.toLowerCase() !== OPEN_LINK_SCHEME) refuse(`the scheme is ${scheme}:`);
  if (action.replace(/\/$/, '').toLowerCase() !== 'open') refuse(`it asks for ${JSON.stringify(action)}`);
  const pairs = readParams(query) ?? refuse('a parameter is badly escaped');
  const unknown = pairs.find(([name]) => name !== 'path' && name !== 'line');
  if (unknown !== undefined) refuse(`it has a ${JSON.stringify(unknown[0])} parameter`);
  const paths = pairs.filter(([name]) => name === 'path');
  const lines = pairs.filter(([name]) => name === 'line');
  if (paths.length !== 1 || lines.length > 1) refuse('path once, line at most once');
  const path = paths[0]![1];
  if (!isAbsolute(path) || path.includes('\0')) refuse('the path is not absolute');
  if (segments(path, true).some((s) => s === '..' || s === '.')) refuse('the path has . or .. in it');
  const lineText = lines[0]?.[1] ?? null;
  const line = lineText === null ? null : lineNumber(lineText);
  if (lineText !== null && line === null) refuse('the line is not a whole number from 1');
  return { path, line };
}

/** The link that asks the app to show `path` (absolute) at `line`. */
export function openLinkOf(path: string, line: number | null): string {
  const pairs: [string, string][] = [['path', path]];
  if (line !== null) pairs.push(['line', String(line)]);
  return `${OPEN_LINK_SCHEME}://open?${writeParams(pairs)}`;
}

/** A known project as the decision needs it. */
export interface KnownRoot {
  projectId: string;
  root: string;
}

/** How the platform reads a path: Windows separates with '\\' too; Windows and macOS volumes usually fold case. */
export interface PathRules {
  windows: boolean;
  caseless: boolean;
}

/**
 * The project a link's path lies in, among the known ones (the deepest root holding it: a project
 * inside another is its own), with the path relative to it; null when no known project holds it.
 */
export function knownTarget(link: OpenLink, projects: readonly KnownRoot[], rules: PathRules): ViewLink | null {
  const wanted = segments(link.path, rules.windows);
  const fold = (s: string): string => (rules.caseless ? s.toLowerCase() : s);
  let best: { projectId: string; depth: number } | null = null;
  for (const project of projects) {
    const root = segments(project.root, rules.windows);
    if (root.length > wanted.length || (best !== null && root.length <= best.depth)) continue;
    if (root.every((part, i) => fold(part) === fold(wanted[i]!))) best = { projectId: project.projectId, depth: root.length };
  }
  if (best === null) return null;
  const rest = wanted.slice(best.depth).join('/');
  return { projectId: best.projectId, path: rest === '' ? null : rest, line: rest === '' ? null : link.line };
}

function isAbsolute(path: string): boolean {
  return path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path);
}

/** A path's names (on Windows '\\' separates them too, and a drive letter is the first name). */
function segments(path: string, windows: boolean): string[] {
  return path.split(windows ? /[\\/]+/ : /\/+/).filter((s) => s !== '');
}
