import { UsageError, integerFlag, projectPathArg, projectPrefixArg, requireNonEmpty, writeJson, type Command, type CommandContext } from '../command.js';
import { describeRestore, printRestorePreview } from '../format/results.js';

// Two forms: one file to one of its versions, or a snapshot (the whole project, or --path a
// folder or file of it). The snapshot form previews with --dry-run; files added since the
// snapshot are kept unless --delete-added (they are recorded before they are deleted).

export const restoreCommand: Command = {
  name: 'restore',
  usage: 'restore FOLDER (PATH --version ID | --snapshot ID [--path PREFIX] [--delete-added] [--dry-run])',
  summary: 'Restore a file to a version, or the project (or a folder of it) to a snapshot; what it holds now is recorded first.',
  flags: {
    version: { type: 'string' },
    snapshot: { type: 'string' },
    path: { type: 'string' },
    'delete-added': { type: 'boolean' },
    'dry-run': { type: 'boolean' },
  },
  async run(ctx) {
    if (ctx.flags.snapshot !== undefined) return restoreSnapshot(ctx);
    const [folder, path, extra] = ctx.positionals;
    if (folder === undefined || path === undefined) throw new UsageError('restore needs FOLDER PATH --version ID, or FOLDER --snapshot ID');
    if (extra !== undefined) throw new UsageError(`unexpected argument ${extra}`);
    requireNonEmpty(folder, 'FOLDER');
    requireNonEmpty(path, 'PATH');
    const versionId = integerFlag(ctx, 'version');
    if (versionId === undefined) throw new UsageError('restore needs --version ID (or --snapshot ID)');
    const projectPath = projectPathArg(folder, path);
    const result = await ctx.engine().restoreFile(folder, projectPath, versionId);
    if (ctx.json) writeJson(ctx, result);
    else ctx.out.write(`Restored ${projectPath} to version ${versionId} (snapshot ${result.snapshotId}).\n`);
  },
};

async function restoreSnapshot(ctx: CommandContext): Promise<void> {
  const [folder, extra] = ctx.positionals;
  if (folder === undefined) throw new UsageError('missing FOLDER');
  if (extra !== undefined) throw new UsageError(`unexpected argument ${extra} (use --path PREFIX for a folder or file)`);
  requireNonEmpty(folder, 'FOLDER');
  requireNonEmpty(typeof ctx.flags.path === 'string' ? ctx.flags.path : undefined, '--path');
  if (ctx.flags.version !== undefined) throw new UsageError('--version and --snapshot cannot be used together');
  const snapshotId = integerFlag(ctx, 'snapshot')!;
  const prefix = typeof ctx.flags.path === 'string' ? projectPrefixArg(folder, ctx.flags.path) : undefined;
  const deleteAdded = ctx.flags['delete-added'] === true;
  const engine = ctx.engine();
  if (ctx.flags['dry-run'] === true) {
    const preview = await engine.previewRestore(folder, snapshotId, { prefix, deleteAdded });
    if (ctx.json) return writeJson(ctx, preview);
    return printRestorePreview(ctx.out, preview, deleteAdded);
  }
  const result = await engine.restoreSnapshot(folder, snapshotId, { prefix, deleteAdded, onProgress: ctx.progress, signal: ctx.signal, onWait: ctx.onWait });
  if (ctx.json) return writeJson(ctx, result);
  ctx.out.write(describeRestore(snapshotId, result));
}
