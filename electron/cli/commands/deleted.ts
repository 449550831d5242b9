import { requirePositionals, writeJson, type Command } from '../command.js';
import { printDeleted } from '../format/listings.js';

export const deletedCommand: Command = {
  name: 'deleted',
  usage: 'deleted FOLDER',
  summary: 'List the files whose latest version is a deletion, with the version to restore.',
  async run(ctx) {
    const [folder] = requirePositionals(ctx, ['FOLDER']);
    const files = ctx.engine().deleted(folder!);
    if (ctx.json) return writeJson(ctx, files);
    printDeleted(ctx.out, files);
  },
};
