import { HindsightError } from '../../../shared/errors.js';
import { projectOf, UsageError, writeJson, type Command } from '../command.js';

export const logCommand: Command = {
  name: 'log',
  usage: 'log FOLDER [PATH]',
  summary: "List the snapshots of a folder, or one file's versions, oldest first.",
  async run(ctx) {
    const [folder, path, extra] = ctx.positionals;
    if (!folder) throw new UsageError('missing FOLDER');
    if (extra !== undefined) throw new UsageError(`unexpected argument ${extra}`);
    const { engine, projectId } = projectOf(ctx, folder);
    if (path === undefined) {
      const snapshots = engine.log(projectId);
      if (ctx.json) return writeJson(ctx, snapshots);
      for (const s of snapshots) ctx.out.write(`${s.snapshotId}\t${s.kind}\t${new Date(s.at).toISOString()}\t${s.files} files\t${s.label ?? ''}\n`);
      return;
    }
    const versions = engine.versions(projectId, path);
    if (versions.length === 0) throw new HindsightError('NOT_FOUND', `${path} has no history in ${folder}.`, { path });
    if (ctx.json) return writeJson(ctx, versions);
    for (const v of versions) ctx.out.write(`${v.versionId}\t${v.kind}\t${new Date(v.at).toISOString()}\t${v.hash ? v.hash.slice(0, 12) : 'deleted'}\t${v.size}\t${v.mode.toString(8)}\n`);
  },
};
