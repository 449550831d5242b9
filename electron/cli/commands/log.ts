import { HindsightError } from '../../../shared/errors.js';
import { printSnapshots, printVersions } from '../format/listings.js';
import { projectPathArg, requireNonEmpty, UsageError, writeJson, type Command } from '../command.js';

export const logCommand: Command = {
  name: 'log',
  usage: 'log FOLDER [PATH]',
  summary: "List the snapshots of a folder, or one file's versions, oldest first.",
  async run(ctx) {
    const [folder, path, extra] = ctx.positionals;
    if (folder === undefined) throw new UsageError('missing FOLDER');
    if (extra !== undefined) throw new UsageError(`unexpected argument ${extra}`);
    requireNonEmpty(folder, 'FOLDER');
    requireNonEmpty(path, 'PATH');
    const engine = ctx.engine();
    if (path === undefined) {
      const snapshots = engine.log(folder).map(({ snapshotId, kind, at, label, files, branch, head }) => ({ snapshotId, kind, at, label, files, branch: branch ?? null, head: head ?? null }));
      if (ctx.json) return writeJson(ctx, snapshots);
      return printSnapshots(ctx.out, snapshots);
    }
    const versions = engine.versions(folder, projectPathArg(folder, path)).map(({ versionId, snapshotId, hash, mode, size, at, kind, branch, head }) => ({ versionId, snapshotId, hash, mode, size, at, kind, branch: branch ?? null, head: head ?? null }));
    if (versions.length === 0) throw new HindsightError('NOT_FOUND', `${path} has no history in ${folder}.`, { path });
    if (ctx.json) return writeJson(ctx, versions);
    printVersions(ctx.out, versions);
  },
};
