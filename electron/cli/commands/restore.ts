import { UsageError, integerFlag, requirePositionals, writeJson, type Command } from '../command.js';

export const restoreCommand: Command = {
  name: 'restore',
  usage: 'restore FOLDER PATH --version ID',
  summary: 'Restore one file to a version: exact bytes and mode; what it holds now is recorded first.',
  flags: { version: { type: 'string' } },
  async run(ctx) {
    const [folder, path] = requirePositionals(ctx, ['FOLDER', 'PATH']);
    const versionId = integerFlag(ctx, 'version');
    if (versionId === undefined) throw new UsageError('restore needs --version ID');
    const result = await ctx.engine().restoreFile(folder!, path!, versionId);
    if (ctx.json) writeJson(ctx, result);
    else ctx.out.write(`Restored ${path} to version ${versionId} (snapshot ${result.snapshotId}).\n`);
  },
};
