import { requirePositionals, writeJson, type Command } from '../command.js';
import { describeOpen } from '../format/results.js';

export const openCommand: Command = {
  name: 'open',
  usage: 'open FOLDER',
  summary: 'Start or update the history of a folder (the first open copies every file).',
  async run(ctx) {
    const [folder] = requirePositionals(ctx, ['FOLDER']);
    const result = await ctx.engine().open(folder!, { onProgress: ctx.progress, signal: ctx.signal, onWait: ctx.onWait });
    if (ctx.json) writeJson(ctx, result);
    else ctx.out.write(describeOpen(result));
  },
};
