import { projectOf, requirePositionals, writeJson, type Command } from '../command.js';
import { printVerify } from '../format/results.js';

export const verifyCommand: Command = {
  name: 'verify',
  usage: 'verify FOLDER [--repair]',
  summary: 'Re-hash every stored blob; --repair writes damaged ones again from the folder; exit 1 when any stays missing or corrupt.',
  flags: { repair: { type: 'boolean' } },
  async run(ctx) {
    const [folder] = requirePositionals(ctx, ['FOLDER']);
    const { engine, projectId } = projectOf(ctx, folder!);
    const repair = ctx.flags.repair === true;
    const result = await engine.verify(projectId, { signal: ctx.signal, repair });
    if (ctx.json) writeJson(ctx, result);
    else printVerify(ctx.out, result);
    if (!result.ok) {
      ctx.err.write(
        repair
          ? 'verify: some blobs are still missing or corrupt: no file of the folder holds their bytes.\n'
          : 'verify: the history store has missing or corrupt blobs; run verify --repair to look for their bytes in the folder.\n',
      );
    }
    return result.ok ? 0 : 1;
  },
};
