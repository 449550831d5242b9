import { requirePositionals, writeJson, type Command } from '../command.js';
import { printVerify } from '../format/results.js';

export const verifyCommand: Command = {
  name: 'verify',
  usage: 'verify FOLDER',
  summary: 'Re-hash every stored blob; exit 1 when any is missing or corrupt.',
  async run(ctx) {
    const [folder] = requirePositionals(ctx, ['FOLDER']);
    const result = await ctx.engine().verify(folder!, ctx.progress);
    if (ctx.json) writeJson(ctx, result);
    else printVerify(ctx.out, result);
    if (!result.ok) ctx.err.write('verify: the history store has missing or corrupt blobs.\n');
    return result.ok ? 0 : 1;
  },
};
