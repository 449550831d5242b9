import { integerFlag, requirePositionals, writeJson, type Command } from '../command.js';
import { printFiles } from '../format/listings.js';

export const filesCommand: Command = {
  name: 'files',
  usage: 'files FOLDER [--at SNAPSHOT]',
  summary: 'List the files as they stand at a snapshot (default: now).',
  flags: { at: { type: 'string' } },
  async run(ctx) {
    const [folder] = requirePositionals(ctx, ['FOLDER']);
    const files = ctx.engine().files(folder!, integerFlag(ctx, 'at'));
    if (ctx.json) writeJson(ctx, files);
    else printFiles(ctx.out, files);
  },
};
