import { join } from 'node:path';
import { createDispatcher } from '../history/dispatcher/dispatcher.js';
import { RecordAll } from '../history/recorder/recordAll.js';
import { RecordingSwitch } from '../history/recorder/recordingSwitch.js';
import { claimToRecord } from '../history/recorder/recorderEndpoint.js';
import { startHost, type RunningHost } from '../host/hostServer.js';
import { announceViewer } from '../history/viewerDiscovery.js';
import type { CommandContext } from './command.js';
import { pageIdle } from './pageIdle.js';
import { recordingOutput } from './recordingOutput.js';
import packageJson from '../../package.json' with { type: 'json' };

// The browser host as `serve` and `view` run it: every known project recorded meanwhile (lines as
// `watch --all` prints them unless quiet), the viewer announced in the data folder
// (viewerDiscovery.ts) so `hindsight view` finds it, until the command's signal or, with
// `idleMs`, until no page has been connected for that long.

export interface ServeOptions {
  /** The command's name in its error lines. */
  command: 'serve' | 'view';
  host?: string;
  port?: number;
  allowRemote?: boolean;
  rendererDir?: string;
  quiet?: boolean;
  /** Stop once no page has been connected for this long (from the start, or since the last page closed). */
  idleMs?: number;
  /** Called with the host's URL once it listens, before recording starts. */
  listening: (url: string) => Promise<void> | void;
}

export async function serveViewer(ctx: CommandContext, options: ServeOptions): Promise<void> {
  const output = recordingOutput(ctx, options.command);
  const lines = options.quiet ? { onError: output.onError } : output;
  const switched = new RecordingSwitch(ctx.engine(), {
    makeRecorder: (catchUpAfter) => new RecordAll(ctx.engine(), { catchUpAfter, ...lines }),
    // A pause taken in the app or another serve holds here too (a serve `view` started included).
    pauseMark: ctx.dataDir,
    onError: (error) => ctx.err.write(`hindsight ${options.command}: not recording: ${(error as Error).message ?? String(error)}\n`),
  });
  // One recorder per data folder: beside the app or a `watch --all`, the viewer is served and that one records.
  const claim = await claimToRecord(ctx.dataDir, { command: options.command, flush: (projectId) => switched.flushFor(projectId) }, (line) =>
    ctx.err.write(`hindsight ${options.command}: ${line}\n`),
  );
  const recording = claim.record ? switched : undefined;
  const dispatcher = createDispatcher(ctx.engine(), { sweep: true, credentials: 'environment', recording });
  const stop = new AbortController();
  if (ctx.signal.aborted) stop.abort();
  else ctx.signal.addEventListener('abort', () => stop.abort(), { once: true });
  const idle =
    options.idleMs === undefined
      ? undefined
      : pageIdle(
          options.idleMs,
          (line) => ctx.err.write(`${line}\n`),
          () => stop.abort(),
        );
  const host: RunningHost = await startHost({
    dispatcher,
    rendererDir: options.rendererDir ?? join(ctx.cliDir, '..', 'renderer'),
    host: options.host,
    port: options.port,
    allowRemote: options.allowRemote,
    meta: { platform: process.platform, version: packageJson.version },
    onPages: idle?.pages,
    // What "Open folder…" may browse: the home folder, unless this names another top.
    browseRoot: process.env.HINDSIGHT_BROWSE_ROOT || undefined,
  });
  const forget = announceViewer(ctx.dataDir, { kind: 'serve', pid: process.pid, url: host.url });
  try {
    await options.listening(host.url);
    idle?.pages(0);
    // The URL first: catching up many projects takes a while, and a page may open meanwhile.
    void recording?.start();
    if (!stop.signal.aborted) await new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve(), { once: true }));
  } finally {
    forget();
    idle?.clear();
    await host.close();
    await recording?.stop();
    await claim.close();
    await dispatcher.close();
  }
}
