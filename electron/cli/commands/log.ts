import { HindsightError } from '../../../shared/errors.js';
import { parseLinesFlag, printLineHistory } from '../format/lineHistory.js';
import { printSnapshots, printVersions } from '../format/listings.js';
import { writeJsonPages } from '../format/jsonPages.js';
import { recordedPath } from '../recordedPath.js';
import { resolveFolder } from '../../history/project/projectStore.js';
import { projectOf, projectPathArg, requireNonEmpty, UsageError, writeJson, type Command } from '../command.js';

const VERSION_NUMBERS_NOTE =
  'VERSION numbers the versions kept now (1 is the oldest; a prune renumbers them): --version takes vN for that number, or the RESTORE WITH id, which never changes.\n';

export const logCommand: Command = {
  name: 'log',
  usage: 'log FOLDER [PATH [--lines A,B]]',
  flags: { lines: { type: 'string' } },
  summary:
    "List the snapshots of a folder, or one file's versions, oldest first (Version 1 is the oldest); with --lines A,B only the versions that changed those lines.",
  async run(ctx) {
    const [folder, path, extra] = ctx.positionals;
    if (folder === undefined) throw new UsageError('missing FOLDER');
    if (extra !== undefined) throw new UsageError(`unexpected argument ${extra}`);
    requireNonEmpty(folder, 'FOLDER');
    requireNonEmpty(path, 'PATH');
    const { engine, projectId } = projectOf(ctx, folder);
    const lines = ctx.flags.lines as string | undefined;
    if (lines !== undefined && path === undefined) throw new UsageError('--lines needs a PATH');
    if (path === undefined) {
      // A page of snapshots at a time, whatever the history's length; --json keeps its shape (SnapshotInfo[]).
      if (ctx.json) return writeJsonPages(ctx.out, engine.logPages(projectId));
      return printSnapshots(ctx.out, () => engine.logPages(projectId));
    }
    const projectPath = recordedPath(engine, projectId, resolveFolder(folder), projectPathArg(folder, path));
    const versions = engine.versions(projectId, projectPath);
    if (versions.length === 0) throw new HindsightError('NOT_FOUND', `${path} has no history in ${folder}.`, { path });
    if (lines !== undefined) {
      const span = parseLinesFlag(lines);
      if (span === null) throw new UsageError(`--lines takes the first and the last line, as 120,140 (not ${lines})`);
      // Each version is the viewer's VersionInfo with the lines followed and its change to them.
      const found = await engine.lineHistory(projectId, projectPath, span);
      if (ctx.json) return writeJson(ctx, found);
      return printLineHistory(ctx.out, found, versions);
    }
    // The viewer's own answer, unchanged (oldest first: a version's number is its place in it).
    if (ctx.json) return writeJson(ctx, versions);
    printVersions(ctx.out, versions, (await engine.diskState(projectId, projectPath)).currentVersionId);
    // On stderr, so the table stays a table for a pipe.
    ctx.err.write(VERSION_NUMBERS_NOTE);
  },
};
