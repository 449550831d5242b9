import { requirePositionals, writeJson, type Command } from '../command.js';

export const checkpointCommand: Command = {
  name: 'checkpoint',
  usage: 'checkpoint FOLDER LABEL',
  summary: 'Record the folder as it is now under a name, e.g. before a risky operation.',
  async run(ctx) {
    const [folder, label] = requirePositionals(ctx, ['FOLDER', 'LABEL']);
    const snapshotId = await ctx.engine().checkpoint(folder!, label!);
    if (ctx.json) writeJson(ctx, { snapshotId, label: label!.trim() });
    else ctx.out.write(`Checkpoint ${snapshotId}: ${label!.trim()}\n`);
  },
};
