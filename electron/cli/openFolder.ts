import { isHindsightError } from '../../shared/errors.js';
import type { OpenProjectResult } from '../../shared/contract/values.js';
import type { CommandContext, FlagSpec } from './command.js';
import { describeUnreadable } from './format/results.js';
import { countOf, formatBytes } from './format/words.js';
import { recorderWrote } from './recorderFreshness.js';

// Opening a folder from a command (open, watch). The first copy of a folder past the large-folder
// settings (largeFolderFiles, largeFolderBytes) waits for --yes: without it the command shows
// what was found, copies nothing and exits 2, so a mistyped `open /` or `open ~` costs nothing.

export const YES_FLAG: FlagSpec = { yes: { type: 'boolean', short: 'y' } };

/** The open's result, or the exit code 2 when a large first copy needs --yes. */
export async function openFolder(ctx: CommandContext, command: string, folder: string): Promise<OpenProjectResult | 2> {
  try {
    const writtenThrough = await recorderWrote(ctx, folder);
    const opened = await ctx.engine().open(folder, { signal: ctx.signal, onWait: ctx.onWait, confirmLarge: ctx.flags.yes === true, writtenThrough });
    for (const line of opened.repaired ?? []) ctx.err.write(`hindsight ${command}: ${line}\n`);
    ctx.err.write(describeUnreadable(command, opened.unreadable));
    return opened;
  } catch (error) {
    if (!isHindsightError(error) || error.code !== 'CONFIRM_LARGE_FOLDER') throw error;
    const found = error.details as { root: string; files: number; bytes: number; limitFiles: number | null; limitBytes: number | null };
    const limits = [found.limitFiles !== null && countOf(found.limitFiles, 'file'), found.limitBytes !== null && formatBytes(found.limitBytes)].filter(Boolean);
    ctx.err.write(
      `hindsight ${command}: ${found.root} is large: ${countOf(found.files, 'file')} (${formatBytes(found.bytes)}) found before counting stopped, ` +
        `past the limit of ${limits.join(' or ')} for a first copy without confirmation.\n` +
        `Nothing was copied. Run again with --yes to copy all of it, or raise the limit (hindsight config set largeFolderFiles N, largeFolderBytes N).\n`,
    );
    return 2;
  }
}
