import { join } from 'node:path';
import { createDispatcher } from '../../history/dispatcher/dispatcher.js';
import { startHost } from '../../host/hostServer.js';
import { RecordAll } from '../../history/watch/recordAll.js';
import { RecordingSwitch } from '../../history/watch/recordingSwitch.js';
import { integerFlag, requirePositionals, UsageError, writeJson, type Command } from '../command.js';
import { recordingOutput } from '../recordingOutput.js';
import packageJson from '../../../package.json' with { type: 'json' };

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
    const rendererDir = typeof ctx.flags['renderer-dir'] === 'string' ? ctx.flags['renderer-dir'] : join(ctx.cliDir, '..', 'renderer');
    const output = recordingOutput(ctx, 'serve');
    const lines = ctx.flags.quiet === true ? { onError: output.onError } : output;
    const recording = new RecordingSwitch(ctx.engine(), {
      makeRecorder: (catchUpAfter) => new RecordAll(ctx.engine(), { catchUpAfter, ...lines }),
      onError: (error) => ctx.err.write(`hindsight serve: not recording: ${(error as Error).message ?? String(error)}\n`),
    });
    const dispatcher = createDispatcher(ctx.engine(), { sweep: true, credentials: 'environment', recording });
    const host = await startHost({
      dispatcher,
      rendererDir,
      host: typeof ctx.flags.host === 'string' ? ctx.flags.host : undefined,
      port,
      allowRemote: ctx.flags['allow-remote'] === true,
      meta: { platform: process.platform, version: packageJson.version },
    });
    if (ctx.json) writeJson(ctx, { url: host.url });
    else ctx.out.write(`Hindsight is serving the viewer at ${host.url}\nStop it with Ctrl+C.\n`);
    // The URL first: catching up many projects takes a while, and a page may open meanwhile.
    void recording.start();
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) resolve();
      else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await host.close();
    await recording.stop();
    await dispatcher.close();
  },
};
