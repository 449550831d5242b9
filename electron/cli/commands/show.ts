import { once } from 'node:events';
import { recordedPath } from '../recordedPath.js';
import { resolveFolder } from '../../history/project/projectStore.js';
import { projectOf, projectPathArg, requirePositionals, type Command } from '../command.js';
import { resolveVersionArg, versionArg } from '../versionArg.js';

export const showCommand: Command = {
  name: 'show',
  usage: 'show FOLDER PATH [--version ID|vN|HEAD|INDEX]',
  summary: "Write the bytes of a version (default: the latest), or of git's committed (HEAD) or staged (INDEX) one, to stdout.",
  flags: { version: { type: 'string' } },
  async run(ctx) {
    const [folder, path] = requirePositionals(ctx, ['FOLDER', 'PATH']);
    const asked = versionArg(ctx, { git: true });
    const { engine, projectId } = projectOf(ctx, folder!);
    const projectPath = recordedPath(engine, projectId, resolveFolder(folder!), projectPathArg(folder!, path!));
    const version = asked === undefined ? undefined : resolveVersionArg(engine, projectId, projectPath, asked);
    const stream =
      typeof version === 'string'
        ? await engine.gitVersionStream(projectId, projectPath, version)
        : await engine.versionStream(projectId, projectPath, version);
    // Streamed: a version of any size is written out without being held whole in memory.
    for await (const chunk of stream) {
      if (!ctx.out.write(chunk as Buffer)) await once(ctx.out, 'drain');
    }
    await new Promise<void>((resolve, reject) => ctx.out.write('', (error) => (error ? reject(error) : resolve())));
  },
};
