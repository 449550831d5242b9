import { projectOf, requirePositionals, writeJson, type Command } from '../command.js';
import { countOf, formatNumber } from '../format/words.js';

// Builds the search index now, with a progress bar (the app builds it in the background). A build
// stopped midway keeps what it indexed; the next one goes on from there.

export const indexCommand: Command = {
  name: 'index',
  usage: 'index FOLDER',
  summary: 'Build the search index of every version now (the app does it in the background).',
  async run(ctx) {
    const [folder] = requirePositionals(ctx, ['FOLDER']);
    const { engine, projectId } = projectOf(ctx, folder!);
    const result = await engine.buildSearchIndex(projectId, { signal: ctx.signal });
    if (ctx.json) return writeJson(ctx, result);
    ctx.out.write(
      `Indexed ${countOf(result.indexedNow, 'content')} now; ${formatNumber(result.indexedBlobs)} of ${formatNumber(result.totalBlobs)} in the index.\n`,
    );
  },
};
