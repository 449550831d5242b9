import { requirePositionals, writeJson, type Command } from '../command.js';
import { printVerify } from '../format/results.js';

export const repairCommand: Command = {
  name: 'repair',
  usage: 'repair FOLDER',
  summary: "Bring back a project's history index from its backup when it cannot be read (the damaged one is kept), then re-check every stored blob.",
  async run(ctx) {
    const [folder] = requirePositionals(ctx, ['FOLDER']);
    const result = await ctx.engine().repair(folder!, { signal: ctx.signal });
    if (ctx.json) writeJson(ctx, result);
    else {
      ctx.out.write(
        result.restoredFrom
          ? `Brought back the history index of ${result.root} from ${result.restoredFrom}; the unreadable one is kept at ${result.damagedKeptAt}.\n`
          : `The history index of ${result.root} reads fine; it was kept.\n`,
      );
      printVerify(ctx.out, result.verify);
    }
    if (!result.verify.ok) ctx.err.write('repair: some blobs are still missing or corrupt: no file of the folder holds their bytes.\n');
    return result.verify.ok ? 0 : 1;
  },
};
