import { once } from 'node:events';
import { integerFlag, projectOf, projectPathArg, requirePositionals, type Command } from '../command.js';

export const showCommand: Command = {
  name: 'show',
  usage: 'show FOLDER PATH [--version ID]',
  summary: 'Write the bytes of a version (default: the latest) to stdout.',
  flags: { version: { type: 'string' } },
  async run(ctx) {
    const [folder, path] = requirePositionals(ctx, ['FOLDER', 'PATH']);
    const versionId = integerFlag(ctx, 'version');
    const { engine, projectId } = projectOf(ctx, folder!);
    // Streamed: a version of any size is written out without being held whole in memory.
    for await (const chunk of await engine.versionStream(projectId, projectPathArg(folder!, path!), versionId)) {
      if (!ctx.out.write(chunk as Buffer)) await once(ctx.out, 'drain');
    }
    await new Promise<void>((resolve, reject) => ctx.out.write('', (error) => (error ? reject(error) : resolve())));
  },
};
