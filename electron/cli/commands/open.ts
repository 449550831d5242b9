import { requirePositionals, writeJson, type Command } from '../command.js';
import { describeOpen } from '../format/results.js';
import { openFolder, YES_FLAG } from '../openFolder.js';

export const openCommand: Command = {
  name: 'open',
  usage: 'open FOLDER [--yes]',
  summary: 'Start or update the history of a folder (the first open copies every file; a very large one needs --yes).',
  flags: YES_FLAG,
  async run(ctx) {
    const [folder] = requirePositionals(ctx, ['FOLDER']);
    const result = await openFolder(ctx, 'open', folder!);
    if (result === 2) return 2;
    if (ctx.json) writeJson(ctx, result);
    else ctx.out.write(describeOpen(result));
  },
};
