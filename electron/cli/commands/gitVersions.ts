import { projectPathArg, requirePositionals, writeJson, type Command } from '../command.js';
import { printGitVersions } from '../format/listings.js';

export const gitVersionsCommand: Command = {
  name: 'git-versions',
  usage: 'git-versions FOLDER PATH',
  summary: "A file's committed (HEAD) version, and its staged (index) version when that differs.",
  async run(ctx) {
    const [folder, path] = requirePositionals(ctx, ['FOLDER', 'PATH']);
    const result = await ctx.engine().gitVersions(folder!, projectPathArg(folder!, path!));
    if (ctx.json) return writeJson(ctx, result);
    printGitVersions(ctx.out, folder!, path!, result);
  },
};
