import { projectOf, requirePositionals, writeJson, type Command } from '../command.js';
import { printVerify } from '../format/results.js';

export const verifyCommand: Command = {
  name: 'verify',
  usage: 'verify FOLDER',
  summary: 'Re-hash every stored blob; exit 1 when any is missing or corrupt.',
  async run(ctx) {
    const [folder] = requirePositionals(ctx, ['FOLDER']);
    const { engine, projectId } = projectOf(ctx, folder!);
    const result = await engine.verify(projectId, { signal: ctx.signal });
    if (ctx.json) writeJson(ctx, result);
    else printVerify(ctx.out, result);
    if (!result.ok) ctx.err.write('verify: the history store has missing or corrupt blobs.\n');
    return result.ok ? 0 : 1;
  },
};
