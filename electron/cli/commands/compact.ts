import { HindsightError } from '../../../shared/errors.js';
import { projectOf, requirePositionals, writeJson, type Command } from '../command.js';
import { printCompact } from '../format/compactResult.js';

// `compact FOLDER [--dry-run]`: converts the raw blobs of a history where compressing them pays
// (written before blobs were compressed, or filed raw), as the project's writer, one short batch
// at a time (a recording app waits at most for one batch). SIGINT or SIGTERM stops it after its
// batch: what it converted is kept, and a next run goes on from there (exit 130 or 143, as for any
// stopped command). --dry-run counts what it would convert and save, writing nothing. Exit 0 when
// it ran to the end, 1 on an error (damaged blobs are not one: they are counted and left for
// verify --repair).

export const compactCommand: Command = {
  name: 'compact',
  usage: 'compact FOLDER [--dry-run]',
  summary:
    'Compress the raw blobs of a history where it pays (hash-checked, one short batch at a time, at the lowest priority); --dry-run says how many blobs and bytes it would convert and save; stoppable, and a next run goes on.',
  flags: { 'dry-run': { type: 'boolean' } },
  async run(ctx) {
    const [folder] = requirePositionals(ctx, ['FOLDER']);
    const { engine, projectId } = projectOf(ctx, folder!);
    const result = await engine.compact(projectId, { dryRun: ctx.flags['dry-run'] === true, signal: ctx.signal, onWait: ctx.onWait });
    if (ctx.json) writeJson(ctx, result);
    else printCompact(ctx.out, result);
    if (result.stopped) throw new HindsightError('CANCELLED', 'what was compacted is kept; run compact again to go on.');
    return 0;
  },
};
