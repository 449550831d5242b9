import { projectOf, requirePositionals, writeJson, type Command } from '../command.js';
import { visibleText } from '../../../shared/fileNameBytes.js';
import { formatDuration, formatNumber } from '../format/words.js';
import { describeCollidingNames } from '../format/collidingNames.js';

// `pull FOLDER [--remote NAME]`: other machines' new snapshots of the folder's project into its
// history (docs/REMOTE.md). The folder's files are not changed; the snapshots show in `log` with
// the machine they came from, and their bytes are fetched when first read.

export const pullCommand: Command = {
  name: 'pull',
  usage: 'pull FOLDER [--remote NAME]',
  summary: "Bring other machines' new snapshots of the folder's project into its history (the folder is not changed).",
  flags: { remote: { type: 'string' } },
  async run(ctx) {
    const [folder] = requirePositionals(ctx, ['FOLDER']);
    const { engine, projectId } = projectOf(ctx, folder!);
    const remote = typeof ctx.flags.remote === 'string' ? ctx.flags.remote : undefined;
    // Told as soon as they are known, before anything is written: a user who stops the pull has seen them.
    const onCollidingNames = (groups: string[][]) => ctx.err.write(describeCollidingNames(groups, folder!));
    const result = await engine.pull(projectId, remote, { signal: ctx.signal, onProgress: ctx.progress, onCollidingNames });
    if (ctx.json) return writeJson(ctx, result);
    if (result.snapshots === 0) {
      ctx.out.write(`Up to date: no new snapshots from other machines on ${result.remote} (${formatDuration(result.ms)}).\n`);
      return;
    }
    for (const m of result.machines) {
      if (m.snapshots > 0)
        ctx.out.write(
          `${formatNumber(m.snapshots)} snapshots from ${visibleText(m.name)} (machine ${m.machine.slice(0, 8)}), newest here as ${m.newest!.snapshotId}.\n`,
        );
    }
    ctx.out.write(`Pulled ${formatNumber(result.snapshots)} snapshots from ${result.remote} in ${formatDuration(result.ms)}; the folder is unchanged.\n`);
  },
};
