import { integerFlag, projectOf, requirePositionals, writeJson, type Command } from '../command.js';
import { printEmptyFolders, printFiles } from '../format/listings.js';
import { writeJsonPages } from '../format/jsonPages.js';

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
    // Read and written a page at a time: a 500,000-file folder is never one array. --json keeps
    // its shape (FileEntry[]); --empty-folders --json gives the folders.
    if (ctx.json) return writeJsonPages(ctx.out, engine.filePages(projectId, at));
    await printFiles(ctx.out, () => engine.filePages(projectId, at));
    if (folders.length > 0) printEmptyFolders(ctx.out, folders);
  },
};
