import { UsageError, integerFlag, writeJson, type Command, type CommandContext } from '../command.js';

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
    if (!folder || !path) throw new UsageError('restore needs FOLDER PATH --version ID, or FOLDER --snapshot ID');
    if (extra !== undefined) throw new UsageError(`unexpected argument ${extra}`);
    const versionId = integerFlag(ctx, 'version');
    if (versionId === undefined) throw new UsageError('restore needs --version ID (or --snapshot ID)');
    const result = await ctx.engine().restoreFile(folder, path, versionId);
    if (ctx.json) writeJson(ctx, result);
    else ctx.out.write(`Restored ${path} to version ${versionId} (snapshot ${result.snapshotId}).\n`);
  },
};

async function restoreSnapshot(ctx: CommandContext): Promise<void> {
  const [folder, extra] = ctx.positionals;
  if (!folder) throw new UsageError('missing FOLDER');
  if (extra !== undefined) throw new UsageError(`unexpected argument ${extra} (use --path PREFIX for a folder or file)`);
  if (ctx.flags.version !== undefined) throw new UsageError('--version and --snapshot cannot be used together');
  const snapshotId = integerFlag(ctx, 'snapshot')!;
  const prefix = typeof ctx.flags.path === 'string' ? ctx.flags.path : undefined;
  const deleteAdded = ctx.flags['delete-added'] === true;
  const engine = ctx.engine();
  if (ctx.flags['dry-run'] === true) {
    const preview = await engine.previewRestore(folder, snapshotId, { prefix, deleteAdded });
    if (ctx.json) return writeJson(ctx, preview);
    ctx.out.write(
      `Restoring snapshot ${snapshotId}${preview.prefix ? ` (${preview.prefix})` : ''} would write ${preview.write.length} files, ` +
        `recreate ${preview.recreate.length}, leave ${preview.unchanged} as they are, and ` +
        `${deleteAdded ? 'delete' : 'keep'} ${preview.added.length} added since.\n`,
    );
    for (const path of preview.write) ctx.out.write(`  write     ${path}\n`);
    for (const path of preview.recreate) ctx.out.write(`  recreate  ${path}\n`);
    for (const path of preview.added) ctx.out.write(`  ${deleteAdded ? 'delete' : 'keep  '}    ${path}\n`);
    return;
  }
  const result = await engine.restoreSnapshot(folder, snapshotId, { prefix, deleteAdded, onProgress: ctx.progress, signal: ctx.signal, onWait: ctx.onWait });
  if (ctx.json) return writeJson(ctx, result);
  if (result.snapshotId === undefined) {
    ctx.out.write(`Nothing to restore: everything is already as in snapshot ${snapshotId}.\n`);
    return;
  }
  ctx.out.write(
    `Restored snapshot ${snapshotId}: ${result.written} written, ${result.recreated} recreated, ${result.deleted} deleted, ` +
      `${result.kept} added since kept (snapshot ${result.snapshotId}; undo with --snapshot ${result.undoSnapshotId}).\n`,
  );
}
