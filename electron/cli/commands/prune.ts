import { UsageError, projectOf, requireNonEmpty, writeJson, type Command } from '../command.js';
import { printPrune } from '../format/pruneResult.js';

// `prune FOLDER [--dry-run]`: thins the history by the retention policy and the budget (config
// get retention, historyBudget). --dry-run changes nothing and lists every snapshot, kept or
// removed, and why. --json prints the engine's answer as is.

export const pruneCommand: Command = {
  name: 'prune',
  usage: 'prune FOLDER [--dry-run]',
  summary: 'Thin old history by the retention policy and the budget; --dry-run shows what would go and why.',
  flags: { 'dry-run': { type: 'boolean' } },
  async run(ctx) {
    const [folder, extra] = ctx.positionals;
    if (folder === undefined) throw new UsageError('missing FOLDER');
    if (extra !== undefined) throw new UsageError(`unexpected argument ${extra}`);
    requireNonEmpty(folder, 'FOLDER');
    const { engine, projectId } = projectOf(ctx, folder);
    const result = await engine.prune(projectId, { dryRun: ctx.flags['dry-run'] === true });
    if (ctx.json) return writeJson(ctx, result);
    printPrune(ctx.out, result);
  },
};
