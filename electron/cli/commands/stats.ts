import { projectOf, requirePositionals, writeJson, type Command } from '../command.js';
import { printStoreStats } from '../format/storeStats.js';

// `stats FOLDER`: what the history costs: bytes as the files are and on disk, what compression and
// content addressing save, the blobs by form, and how many versions the budget holds now against
// uncompressed. --json prints the engine's answer as is (the Store tab's storeStats call).

export const statsCommand: Command = {
  name: 'stats',
  usage: 'stats FOLDER',
  summary:
    "The history's size as the files are and on disk, what compression saves, the blobs by form, and how many versions the budget holds (and would hold uncompressed).",
  async run(ctx) {
    const [folder] = requirePositionals(ctx, ['FOLDER']);
    const { engine, projectId } = projectOf(ctx, folder!);
    const stats = engine.storeStats(projectId, 10);
    if (ctx.json) writeJson(ctx, stats);
    else printStoreStats(ctx.out, stats);
    return 0;
  },
};
