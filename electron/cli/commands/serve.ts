import { integerFlag, requirePositionals, UsageError, writeJson, type Command } from '../command.js';
import { serveViewer } from '../serveViewer.js';

// `hindsight serve`: the viewer in a browser, for machines without a display and for the browser
// e2e suite. Runs until SIGINT or SIGTERM, recording every known project meanwhile (as `watch
// --all` does), whether or not a page is connected, and saying so as `watch --all` does: a line per
// recorded change group and per project state, after the URL (--quiet: the URL only).

export const serveCommand: Command = {
  name: 'serve',
  usage: 'serve [--host 127.0.0.1] [--port N] [--allow-remote] [--renderer-dir DIR] [--quiet]',
  summary: 'Serve the history viewer to a browser on this machine (the URL carries a token).',
  flags: {
    host: { type: 'string' },
    port: { type: 'string' },
    'allow-remote': { type: 'boolean' },
    'renderer-dir': { type: 'string' },
    quiet: { type: 'boolean' },
  },
  async run(ctx) {
    requirePositionals(ctx, []);
    const port = integerFlag(ctx, 'port');
    if (port !== undefined && port > 65535) throw new UsageError('--port takes a number from 0 to 65535');
    await serveViewer(ctx, {
      command: 'serve',
      host: typeof ctx.flags.host === 'string' ? ctx.flags.host : undefined,
      port,
      allowRemote: ctx.flags['allow-remote'] === true,
      rendererDir: typeof ctx.flags['renderer-dir'] === 'string' ? ctx.flags['renderer-dir'] : undefined,
      quiet: ctx.flags.quiet === true,
      listening: (url) => {
        if (ctx.json) writeJson(ctx, { url });
        else ctx.out.write(`Hindsight is serving the viewer at ${url}\nStop it with Ctrl+C.\n`);
      },
    });
  },
};
