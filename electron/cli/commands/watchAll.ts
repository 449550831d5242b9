import { RecordAll } from '../../history/recorder/recordAll.js';
import { integerFlag, requirePositionals, UsageError, writeJson, type CommandContext } from '../command.js';
import { recordingOutput } from '../recordingOutput.js';
import { claimRecording } from '../recorderClaim.js';
import { countOf } from '../format/words.js';

// `watch --all`: records every known project until SIGINT or SIGTERM (history/recorder/recordAll.ts):
// one line per change group naming its project, one per project picked up, gone, back or
// forgotten (JSON lines with --json); every open group is written before it exits.

export async function watchAll(ctx: CommandContext): Promise<void> {
  requirePositionals(ctx, []);
  if (ctx.flags.yes === true)
    throw new UsageError('--yes is for one folder; a known project past the large-folder limits is opened with `hindsight open FOLDER --yes`');
  const recorder = new RecordAll(ctx.engine(), {
    quietMs: integerFlag(ctx, 'quiet-ms'),
    maxGroupMs: integerFlag(ctx, 'max-group-ms'),
    ...recordingOutput(ctx, 'watch'),
  });
  // Claimed before any catch-up: a second recorder of the data folder stops here (recorderClaim.ts).
  const endpoint = await claimRecording(ctx.dataDir, { command: 'watch --all', flush: (projectId) => recorder.flushFor(projectId) });
  // A signal during the catch-ups cancels them: what they found is found again at the next start.
  const stopped = new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  }).then(() => recorder.stop());
  try {
    await recorder.start();
    if (!ctx.signal.aborted) {
      const projects = recorder.watching().length;
      if (ctx.json) writeJson(ctx, { watching: true, projects });
      else ctx.err.write(`Watching ${countOf(projects, 'project')} and the list of known projects; Ctrl-C to stop.\n`);
    }
    await stopped;
  } finally {
    await endpoint.close();
  }
}
