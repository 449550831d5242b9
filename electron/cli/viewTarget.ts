import { HindsightError } from '../../shared/errors.js';
import { join } from 'node:path';
import { openLinkOf } from '../../shared/openLink.js';
import { viewLink } from '../../shared/viewLink.js';
import { projectPathArg, UsageError, type CommandContext } from './command.js';

// What `hindsight view FOLDER [PATH[:LINE]]` points at: a known project (never one opened here:
// view only shows), a file of it as typed and a line, as the viewer's address fragment.

export interface ViewTarget {
  projectId: string;
  path: string | null;
  line: number | null;
  /** The fragment the viewer reads (#project=…&path=…&line=…). */
  hash: string;
  /** The same place as the app's link (hindsight://open?path=ABSOLUTE&line=N). */
  appLink: string;
}

export async function viewTarget(ctx: CommandContext, folder: string, file: string | undefined): Promise<ViewTarget> {
  const engine = ctx.engine();
  const projectId = engine.locate(folder);
  const known = (await engine.listProjects()).find((p) => p.projectId === projectId);
  if (known === undefined) {
    throw new HindsightError('NOT_FOUND', `${folder} has no history yet. Open it first (hindsight open ${folder}); view only shows a history.`, { folder });
  }
  const { path, line } = file === undefined ? { path: null, line: null } : splitLine(folder, file);
  const root = known.root;
  return { projectId, path, line, hash: viewLink({ projectId, path, line }), appLink: openLinkOf(path === null ? root : join(root, path), line) };
}

/** PATH or PATH:LINE; a line is a whole number from 1. */
function splitLine(folder: string, typed: string): { path: string; line: number | null } {
  const match = /^(.+):(\d+)$/.exec(typed);
  if (match === null) return { path: projectPathArg(folder, typed), line: null };
  const line = Number(match[2]);
  if (!Number.isSafeInteger(line) || line < 1) throw new UsageError(`the line in ${typed} must be a whole number from 1`);
  return { path: projectPathArg(folder, match[1]!), line };
}
