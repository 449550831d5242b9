import { requirePositionals, UsageError, writeJson, type Command } from '../command.js';
import { visibleText } from '../../../shared/fileNameBytes.js';
import { formatBytes, formatDuration, formatNumber } from '../format/words.js';
import { describeSpecialModes } from '../format/results.js';

// `clone --remote NAME --project ID --into FOLDER [--snapshot ID]`: a project's history from a
// remote into a new or empty folder (docs/REMOTE.md). ID is the project id `push --json` prints;
// --snapshot takes a snapshot id of the machine that started the project, or MACHINE:ID.

export const cloneCommand: Command = {
  name: 'clone',
  usage: 'clone --remote NAME --project ID --into FOLDER [--snapshot ID] [--keep-special-modes]',
  summary: "Open a pushed project's history on this machine: the newest snapshot's files, every version browsable.",
  flags: {
    remote: { type: 'string' },
    project: { type: 'string' },
    into: { type: 'string' },
    snapshot: { type: 'string' },
    'keep-special-modes': { type: 'boolean' },
  },
  async run(ctx) {
    requirePositionals(ctx, []);
    const flag = (name: string, required: boolean) => {
      const value = ctx.flags[name];
      if (value === undefined && required) throw new UsageError(`missing --${name}`);
      if (value !== undefined && (typeof value !== 'string' || value === '')) throw new UsageError(`--${name} takes a value`);
      return value as string | undefined;
    };
    const request = { remote: flag('remote', false), projectId: flag('project', true)!, into: flag('into', true)!, snapshot: flag('snapshot', false) };
    const result = await ctx
      .engine()
      .clone(request, { signal: ctx.signal, onProgress: ctx.progress, keepSpecialModes: ctx.flags['keep-special-modes'] === true });
    ctx.err.write(describeSpecialModes(result.specialModesDropped));
    if (ctx.json) return writeJson(ctx, result);
    ctx.out.write(
      `Cloned ${formatNumber(result.snapshots)} snapshots into ${visibleText(result.root)}: ${formatNumber(result.files)} files (${formatBytes(result.bytes)}) ` +
        `from snapshot ${result.from.origin} of machine ${result.from.machine.slice(0, 8)} in ${formatDuration(result.ms)}.\n`,
    );
  },
};
