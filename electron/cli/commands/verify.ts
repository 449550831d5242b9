import { projectOf, requirePositionals, writeJson, type Command } from '../command.js';
import { printVerify } from '../format/results.js';
import { visibleLines } from '../../../shared/fileNameBytes.js';

// Exit codes: 0 every blob is here intact or held by the remote (a clone's older versions); 1 some
// stay missing or corrupt (with --check-remote: also those the remote no longer holds); 3 the
// local blobs are fine but --check-remote could not ask the remote.
export const REMOTE_UNCHECKED_EXIT = 3;

export const verifyCommand: Command = {
  name: 'verify',
  usage: 'verify FOLDER [--repair] [--check-remote]',
  summary:
    'Re-hash every stored blob; --repair writes damaged ones again from the folder; blobs only the remote holds (a clone) are counted apart, and --check-remote asks the remote for them; exit 1 when any stays missing or corrupt, 3 when the remote could not be asked.',
  flags: { repair: { type: 'boolean' }, 'check-remote': { type: 'boolean' } },
  async run(ctx) {
    const [folder] = requirePositionals(ctx, ['FOLDER']);
    const { engine, projectId } = projectOf(ctx, folder!);
    const repair = ctx.flags.repair === true;
    const result = await engine.verify(projectId, { signal: ctx.signal, repair, checkRemote: ctx.flags['check-remote'] === true });
    if (ctx.json) writeJson(ctx, result);
    else printVerify(ctx.out, result);
    if (!result.ok) {
      ctx.err.write(
        repair
          ? 'verify: some blobs are still missing or corrupt: no file of the folder holds their bytes.\n'
          : 'verify: the history store has missing or corrupt blobs; run verify --repair to look for their bytes in the folder.\n',
      );
      return 1;
    }
    if (result.remoteCheck?.error) {
      ctx.err.write(`verify: the remote could not be asked for the blobs only it holds: ${visibleLines(result.remoteCheck.error)}\n`);
      return REMOTE_UNCHECKED_EXIT;
    }
    return 0;
  },
};
