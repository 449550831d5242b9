import {
  UsageError,
  integerFlag,
  projectOf,
  projectPathArg,
  projectPrefixArg,
  requireNonEmpty,
  writeJson,
  type Command,
  type CommandContext,
} from '../command.js';
import { describeRestore, describeSpecialModes, describeUndo, printRestorePreview, undoCommand } from '../format/results.js';
import { countOf, formatBytes } from '../format/words.js';
import { restoredText } from '../format/restoredText.js';
import { resolveVersionArg, versionArg } from '../versionArg.js';
import { describeUnwritable } from '../format/unwritableNames.js';

// Three forms: one file to one of its versions, a snapshot (the whole project, or --path a
// folder or file of it), or a snapshot written into a new or empty folder (--into; the project is
// not touched). The snapshot form previews with --dry-run; files added since the snapshot are
// kept unless --delete-added (they are recorded before they are deleted). Setuid, setgid and
// sticky bits that came from another history (a bundle, a clone, a pull) are dropped, and said so
// on stderr, unless --keep-special-modes. --undo SNAPSHOT undoes the restore recorded as SNAPSHOT
// (what a restore prints): the paths it changed go back to the snapshot before it, nothing else.

export const restoreCommand: Command = {
  name: 'restore',
  usage:
    'restore FOLDER (PATH --version ID|vN|HEAD|INDEX | --snapshot ID [--path PREFIX] [--delete-added] [--dry-run] | --snapshot ID --into NEWFOLDER [--background-close on|off] | --undo SNAPSHOT [--dry-run]) [--keep-special-modes]',
  summary:
    "Restore a file to a version (or git's HEAD or INDEX one), or the project (or a folder of it) to a snapshot; what it holds now is recorded first. --into writes the snapshot into a new or empty folder instead. --undo SNAPSHOT undoes that restore at any later time: only the paths it changed go back.",
  flags: {
    version: { type: 'string' },
    snapshot: { type: 'string' },
    path: { type: 'string' },
    'delete-added': { type: 'boolean' },
    'dry-run': { type: 'boolean' },
    into: { type: 'string' },
    'background-close': { type: 'string' },
    'keep-special-modes': { type: 'boolean' },
    undo: { type: 'string' },
  },
  async run(ctx) {
    if (ctx.flags.into !== undefined) return restoreInto(ctx);
    if (ctx.flags['background-close'] !== undefined) throw new UsageError('--background-close goes with --into');
    if (ctx.flags.undo !== undefined) return undoRestore(ctx);
    if (ctx.flags.snapshot !== undefined) return restoreSnapshot(ctx);
    const [folder, path, extra] = ctx.positionals;
    if (folder === undefined || path === undefined) throw new UsageError('restore needs FOLDER PATH --version ID, or FOLDER --snapshot ID');
    if (extra !== undefined) throw new UsageError(`unexpected argument ${extra}`);
    requireNonEmpty(folder, 'FOLDER');
    requireNonEmpty(path, 'PATH');
    const asked = versionArg(ctx, { git: true });
    if (asked === undefined) throw new UsageError('restore needs --version ID|vN|HEAD|INDEX (or --snapshot ID)');
    const projectPath = projectPathArg(folder, path);
    const { engine, projectId } = projectOf(ctx, folder);
    const version = resolveVersionArg(engine, projectId, projectPath, asked);
    const result =
      typeof version === 'string'
        ? await engine.restoreFromGit(projectId, projectPath, version)
        : await engine.restoreFile(projectId, projectPath, version, { keepSpecialModes: keepSpecialModes(ctx) });
    ctx.err.write(describeSpecialModes(result.specialModesDropped));
    if (ctx.json) writeJson(ctx, result);
    else {
      ctx.out.write(restoredText(engine.versions(projectId, projectPath), projectPath, version, result) + undoCommand(folder, result.snapshotId));
    }
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
  const { engine, projectId } = projectOf(ctx, folder);
  if (ctx.flags['dry-run'] === true) {
    const preview = await engine.previewRestore(projectId, snapshotId, { prefix, deleteAdded, keepSpecialModes: keepSpecialModes(ctx) });
    ctx.err.write(describeSpecialModes(preview.specialModesDropped));
    ctx.err.write(describeUnwritable(preview.skipped, 'skipped'));
    if (ctx.json) return writeJson(ctx, preview);
    return printRestorePreview(ctx.out, preview, deleteAdded);
  }
  const result = await engine.restoreSnapshot(projectId, snapshotId, {
    prefix,
    deleteAdded,
    keepSpecialModes: keepSpecialModes(ctx),
    signal: ctx.signal,
    onWait: ctx.onWait,
  });
  ctx.err.write(describeSpecialModes(result.specialModesDropped));
  ctx.err.write(describeUnwritable(result.skipped, 'skipped'));
  if (ctx.json) return writeJson(ctx, result);
  ctx.out.write(describeRestore(snapshotId, result, folder));
}

async function undoRestore(ctx: CommandContext): Promise<void> {
  const [folder, extra] = ctx.positionals;
  if (folder === undefined) throw new UsageError('missing FOLDER');
  if (extra !== undefined) throw new UsageError(`unexpected argument ${extra}`);
  requireNonEmpty(folder, 'FOLDER');
  for (const flag of ['version', 'snapshot', 'path', 'delete-added', 'into', 'background-close']) {
    if (ctx.flags[flag] !== undefined) throw new UsageError(`--${flag} cannot be used with --undo`);
  }
  const restoreId = integerFlag(ctx, 'undo')!;
  const { engine, projectId } = projectOf(ctx, folder);
  const dryRun = ctx.flags['dry-run'] === true;
  const result = await engine.undoRestore(projectId, restoreId, { dryRun, keepSpecialModes: keepSpecialModes(ctx), signal: ctx.signal, onWait: ctx.onWait });
  ctx.err.write(describeSpecialModes(result.specialModesDropped));
  if (ctx.json) return writeJson(ctx, dryRun ? result.preview : result);
  if (dryRun) return printRestorePreview(ctx.out, result.preview!, true);
  ctx.out.write(describeUndo(restoreId, result, folder));
}

async function restoreInto(ctx: CommandContext): Promise<void> {
  const [folder, extra] = ctx.positionals;
  if (folder === undefined) throw new UsageError('missing FOLDER');
  if (extra !== undefined) throw new UsageError(`unexpected argument ${extra}`);
  requireNonEmpty(folder, 'FOLDER');
  const into = ctx.flags.into as string;
  requireNonEmpty(into, '--into');
  for (const flag of ['version', 'path', 'delete-added', 'dry-run']) {
    if (ctx.flags[flag] !== undefined) throw new UsageError(`--${flag} cannot be used with --into`);
  }
  const snapshotId = integerFlag(ctx, 'snapshot');
  if (snapshotId === undefined) throw new UsageError('--into needs --snapshot ID');
  const close = ctx.flags['background-close'];
  if (close !== undefined && close !== 'on' && close !== 'off') throw new UsageError('--background-close takes on or off');
  const { engine, projectId } = projectOf(ctx, folder);
  const result = await engine.materializeSnapshot(projectId, snapshotId, into, {
    signal: ctx.signal,
    backgroundClose: close,
    keepSpecialModes: keepSpecialModes(ctx),
  });
  ctx.err.write(describeSpecialModes(result.specialModesDropped));
  ctx.err.write(describeUnwritable(result.skipped, 'skipped'));
  if (ctx.json) return writeJson(ctx, result);
  ctx.out.write(
    `Wrote snapshot ${snapshotId} into ${result.into}: ${countOf(result.files, 'file')}${result.links > 0 ? `, ${countOf(result.links, 'link')}` : ''} (${formatBytes(result.bytes)}).\n`,
  );
}

/** Setuid/setgid/sticky bits from another history are dropped unless asked for (restore/specialModes.ts). */
function keepSpecialModes(ctx: CommandContext): boolean {
  return ctx.flags['keep-special-modes'] === true;
}
