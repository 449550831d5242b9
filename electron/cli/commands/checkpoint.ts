import { projectOf, requirePositionals, writeJson, type Command } from '../command.js';
import { visibleText } from '../../../shared/fileNameBytes.js';

export const checkpointCommand: Command = {
  name: 'checkpoint',
  usage: 'checkpoint FOLDER LABEL',
  summary: 'Record the folder as it is now under a name, e.g. before a risky operation.',
  async run(ctx) {
    const [folder, label] = requirePositionals(ctx, ['FOLDER', 'LABEL']);
    const { engine, projectId } = projectOf(ctx, folder!);
    const snapshot = await engine.checkpoint(projectId, label!);
    if (ctx.json) writeJson(ctx, snapshot);
    else ctx.out.write(`Checkpoint ${snapshot.snapshotId}: ${visibleText(snapshot.label ?? '')}\n`);
  },
};
