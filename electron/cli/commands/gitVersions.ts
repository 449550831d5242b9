import { projectOf, requirePositionals, writeJson, type Command } from '../command.js';

export const gitVersionsCommand: Command = {
  name: 'git-versions',
  usage: 'git-versions FOLDER PATH',
  summary: "A file's committed (HEAD) version, and its staged (index) version when that differs.",
  async run(ctx) {
    const [folder, path] = requirePositionals(ctx, ['FOLDER', 'PATH']);
    const { engine, projectId } = projectOf(ctx, folder!);
    const result = await engine.gitVersions(projectId, path!);
    if (ctx.json) return writeJson(ctx, result);
    if (!result.repository) return void ctx.out.write(`${folder} is not in a git repository.\n`);
    ctx.out.write(`branch ${result.branch ?? '(detached)'}\tcommit ${result.commit ?? '(none yet)'}\n`);
    for (const [name, version] of [['HEAD', result.head], ['index', result.index]] as const) {
      if (version) ctx.out.write(`${name}\t${version.blob}\t${version.size}\t${version.mode.toString(8)}\n`);
    }
    if (!result.head) ctx.out.write(`${path} is not in HEAD.\n`);
  },
};
