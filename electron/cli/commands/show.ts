import { integerFlag, projectPathArg, requirePositionals, type Command } from '../command.js';

export const showCommand: Command = {
  name: 'show',
  usage: 'show FOLDER PATH [--version ID]',
  summary: 'Write the bytes of a version (default: the latest) to stdout.',
  flags: { version: { type: 'string' } },
  async run(ctx) {
    const [folder, path] = requirePositionals(ctx, ['FOLDER', 'PATH']);
    const bytes = ctx.engine().read(folder!, projectPathArg(folder!, path!), integerFlag(ctx, 'version'));
    await new Promise<void>((resolve, reject) => ctx.out.write(bytes, (error) => (error ? reject(error) : resolve())));
  },
};
