import { integerFlag, projectOf, requirePositionals, writeJson, type Command } from '../command.js';
import { printEmptyFolders, printFiles } from '../format/listings.js';

export const filesCommand: Command = {
  name: 'files',
  usage: 'files FOLDER [--at SNAPSHOT] [--empty-folders]',
  summary: 'List the files as they stand at a snapshot (default: now), then its empty folders; --empty-folders: only those.',
  flags: { at: { type: 'string' }, 'empty-folders': { type: 'boolean' } },
  async run(ctx) {
    const [folder] = requirePositionals(ctx, ['FOLDER']);
    const at = integerFlag(ctx, 'at');
    const { engine, projectId } = projectOf(ctx, folder!);
    const folders = engine.emptyFolders(projectId, at);
    if (ctx.flags['empty-folders'] === true) {
      if (ctx.json) return writeJson(ctx, folders);
      return printEmptyFolders(ctx.out, folders);
    }
    const files = engine.files(projectId, at);
    // --json keeps its shape (FileEntry[]); --empty-folders --json gives the folders.
    if (ctx.json) return writeJson(ctx, files);
    printFiles(ctx.out, files);
    if (folders.length > 0) printEmptyFolders(ctx.out, folders);
  },
};
