import { positiveIntegerFlag, projectOf, requirePositionals, type Command } from '../command.js';
import { printSearch } from '../format/searchHits.js';
import { parseSince } from '../sinceTime.js';
import { parseDisplayPath } from '../../../shared/fileNameBytes.js';

// Every version ever recorded that holds a text: one entry per file and content, newest first.

export const searchCommand: Command = {
  name: 'search',
  usage: 'search FOLDER QUERY [--path GLOB] [--regex] [--case] [--since TIME] [--limit N]',
  summary: 'Find a text in every version ever recorded: where it is, when it was seen, whether the file still has it.',
  flags: {
    path: { type: 'string' },
    regex: { type: 'boolean' },
    case: { type: 'boolean' },
    since: { type: 'string' },
    limit: { type: 'string' },
  },
  async run(ctx) {
    const [folder, query] = requirePositionals(ctx, ['FOLDER', 'QUERY']);
    const path = typeof ctx.flags.path === 'string' && ctx.flags.path !== '' ? parseDisplayPath(ctx.flags.path) : undefined;
    const since = typeof ctx.flags.since === 'string' ? parseSince(ctx.flags.since) : undefined;
    const limit = positiveIntegerFlag(ctx, 'limit') ?? 500;
    const { engine, projectId } = projectOf(ctx, folder!);
    // SIGINT, SIGTERM or a closed output end the search's thread at once.
    const request = { query: query!, regex: ctx.flags.regex === true, caseSensitive: ctx.flags.case === true, path, since, limit };
    // --json: the answer's text is made on the search's thread (engine.searchJson), as writeJson would write it.
    if (ctx.json) return void ctx.out.write(`${await engine.searchJson(projectId, request, { signal: ctx.signal })}\n`);
    printSearch(ctx.out, await engine.search(projectId, request, { signal: ctx.signal }));
  },
};
