import { integerFlag, projectOf, requirePositionals, writeJson, type Command } from '../command.js';

export const filesCommand: Command = {
  name: 'files',
  usage: 'files FOLDER [--at SNAPSHOT]',
  summary: 'List the files as they stand at a snapshot (default: now).',
  flags: { at: { type: 'string' } },
  async run(ctx) {
    const [folder] = requirePositionals(ctx, ['FOLDER']);
    const at = integerFlag(ctx, 'at');
    const { engine, projectId } = projectOf(ctx, folder!);
    const files = engine.files(projectId, at);
    if (ctx.json) writeJson(ctx, files);
    else for (const f of files) ctx.out.write(`${f.mode.toString(8).padStart(4, '0')} ${String(f.size).padStart(10)} ${f.hash.slice(0, 12)} ${f.path}${f.target !== undefined ? ` -> ${f.target}` : ''}\n`);
  },
};
