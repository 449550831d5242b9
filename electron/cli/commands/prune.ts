import { UsageError, projectOf, requireNonEmpty, writeJson, type Command } from '../command.js';
import { printPrune } from '../format/pruneResult.js';

// `prune FOLDER [--dry-run] [--archive-to NAME]`: thins the history by the retention policy and
// the budget (config get retention, historyBudget). --dry-run changes nothing and lists every
// snapshot, kept or removed, and why. --archive-to (or the setting retention.archiveToRemote)
// keeps the thinned versions and moves their bytes to that remote instead. --json prints the
// engine's answer as is.

export const pruneCommand: Command = {
  name: 'prune',
  usage: 'prune FOLDER [--dry-run] [--archive-to NAME]',
  summary: 'Thin old history by the retention policy and the budget; --dry-run shows what would go and why; --archive-to moves it to a remote.',
  flags: { 'dry-run': { type: 'boolean' }, 'archive-to': { type: 'string' } },
  async run(ctx) {
    const [folder, extra] = ctx.positionals;
    if (folder === undefined) throw new UsageError('missing FOLDER');
    if (extra !== undefined) throw new UsageError(`unexpected argument ${extra}`);
    requireNonEmpty(folder, 'FOLDER');
    const { engine, projectId } = projectOf(ctx, folder);
    const archiveTo = ctx.flags['archive-to'];
    if (typeof archiveTo === 'string') requireNonEmpty(archiveTo, '--archive-to');
    const result = await engine.prune(projectId, { dryRun: ctx.flags['dry-run'] === true, archiveTo: typeof archiveTo === 'string' ? archiveTo : undefined });
    // A push that failed moved nothing: the answer says why, and the exit code says it failed.
    const code = result.archive?.error ? 1 : 0;
    if (ctx.json) writeJson(ctx, result);
    else printPrune(ctx.out, result);
    return code;
  },
};
