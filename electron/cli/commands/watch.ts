import { integerFlag, requirePositionals, writeJson, type Command } from '../command.js';
import { visibleLines } from '../../../shared/fileNameBytes.js';
import { describeChangeGroup } from '../format/results.js';
import { openFolder, YES_FLAG } from '../openFolder.js';
import { watchAll } from './watchAll.js';

// Records a folder live until SIGINT or SIGTERM: one line per change group written (JSON lines
// with --json), and the open group is written before it exits. With --all, every known project
// (watchAll.ts).

export const watchCommand: Command = {
  name: 'watch',
  usage: 'watch FOLDER | --all [--quiet-ms N] [--max-group-ms N] [--yes]',
  summary: 'Record every change of a folder (or of every known project) as it happens, until interrupted.',
  flags: { 'quiet-ms': { type: 'string' }, 'max-group-ms': { type: 'string' }, all: { type: 'boolean' }, ...YES_FLAG },
  async run(ctx) {
    if (ctx.flags.all === true) return watchAll(ctx);
    const [folder] = requirePositionals(ctx, ['FOLDER']);
    const engine = ctx.engine();
    const opened = await openFolder(ctx, 'watch', folder!);
    if (opened === 2) return 2;
    const { projectId } = opened;
    await engine.watch(projectId, {
      quietMs: integerFlag(ctx, 'quiet-ms'),
      maxGroupMs: integerFlag(ctx, 'max-group-ms'),
      onGroup: (group) => {
        if (group.snapshotId === undefined) return;
        if (ctx.json) writeJson(ctx, group);
        else ctx.out.write(describeChangeGroup(group));
      },
      onError: (error) => ctx.err.write(`hindsight watch: ${visibleLines((error as Error).message ?? String(error))}\n`),
    });
    if (ctx.json) writeJson(ctx, { watching: true });
    else ctx.err.write(`Watching ${folder}; Ctrl-C to stop.\n`);
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) resolve();
      else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await engine.unwatch(projectId);
  },
};
