import type { RecordAllOptions } from '../history/recorder/recordAll.js';
import { writeJson, type CommandContext } from './command.js';
import { describeRecordedGroup, describeRecording } from './format/recording.js';

// What a recorder of every known project says as it goes, the same for `watch --all` and `serve`:
// a line per recorded change group naming its project, one per project picked up, gone, back or
// forgotten (JSON lines with --json), and a failure on stderr.

export function recordingOutput(ctx: CommandContext, command: string): Pick<RecordAllOptions, 'onGroup' | 'onState' | 'onError'> {
  return {
    onGroup: (project, group) => {
      if (ctx.json) writeJson(ctx, { ...project, ...group });
      else ctx.out.write(describeRecordedGroup(project, group));
    },
    onState: (report) => {
      if (ctx.json) writeJson(ctx, report);
      else ctx.out.write(describeRecording(report));
    },
    onError: (project, error) => ctx.err.write(`hindsight ${command}: ${project.root}: ${(error as Error).message ?? String(error)}\n`),
  };
}
