import { projectOf, requirePositionals, writeJson, type Command } from '../command.js';
import { formatBytes, formatDuration, formatNumber } from '../format/words.js';

// `push FOLDER [--remote NAME]`: sends what the remote lacks of the folder's history (docs/REMOTE.md).
// Credentials: AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (/ AWS_SESSION_TOKEN), or AWS_PROFILE.

export const pushCommand: Command = {
  name: 'push',
  usage: 'push FOLDER [--remote NAME]',
  summary: "Send the folder's history to a remote: only what it lacks; run again to resume.",
  flags: { remote: { type: 'string' } },
  async run(ctx) {
    const [folder] = requirePositionals(ctx, ['FOLDER']);
    const { engine, projectId } = projectOf(ctx, folder!);
    const remote = typeof ctx.flags.remote === 'string' ? ctx.flags.remote : undefined;
    const result = await engine.push(projectId, remote, {
      signal: ctx.signal,
      onProgress: ctx.progress,
      onWait: () => ctx.err.write('Another push of this project is running; waiting for it.\n'),
    });
    if (ctx.json) return writeJson(ctx, result);
    if (result.upToDate) {
      ctx.out.write(`Up to date: ${result.remote} has this history (${formatDuration(result.ms)}).\n`);
      return;
    }
    ctx.out.write(
      `Pushed ${formatNumber(result.snapshots)} snapshots, ${formatNumber(result.blobs)} blobs (${formatBytes(result.bytes)}) in ${formatNumber(result.objects)} objects ` +
        `(${formatBytes(result.storedBytes)}) to ${result.remote} in ${formatDuration(result.ms)}` +
        `${result.resumed ? `; ${formatNumber(result.resumed)} objects were already there from an interrupted push` : ''}.\n`,
    );
  },
};
