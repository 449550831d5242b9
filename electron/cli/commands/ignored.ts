import { displayPath } from '../../../shared/fileNameBytes.js';
import { projectOf, requirePositionals, writeJson, type Command } from '../command.js';

export const ignoredCommand: Command = {
  name: 'ignored',
  usage: 'ignored FOLDER',
  summary: "List what ignore rules (.gitignore, the exclude setting) leave out of a folder's history; files git tracks are always recorded.",
  async run(ctx) {
    const [folder] = requirePositionals(ctx, ['FOLDER']);
    const { engine, projectId } = projectOf(ctx, folder!);
    const paths = await engine.ignored(projectId);
    if (ctx.json) return writeJson(ctx, paths);
    for (const path of paths) ctx.out.write(`${displayPath(path)}\n`);
  },
};
