import { findRunningViewer } from '../../history/viewerDiscovery.js';
import { UsageError, requireNonEmpty, writeJson, type Command, type CommandContext } from '../command.js';
import { openBrowser } from '../openBrowser.js';
import { serveViewer } from '../serveViewer.js';
import { viewTarget } from '../viewTarget.js';

// `hindsight view FOLDER [PATH[:LINE]]`: the viewer at that file's history and line, in the
// viewer already running for this data folder (found through viewerDiscovery.ts: the app gets a
// hindsight://open link, a serve a deep link to its page), else in a
// browser host started here. That host records every known project as `serve` does, and stops
// once no page has been open for five minutes (HINDSIGHT_VIEW_IDLE_MS sets another span).
// Where no browser can be started (no display), the link is printed for the user to open.

const IDLE_MS = 5 * 60_000;

export const viewCommand: Command = {
  name: 'view',
  usage: 'view FOLDER [PATH[:LINE]] [--renderer-dir DIR] [--quiet]',
  summary: "Open the viewer at a file's history and line (in the running viewer, or a browser host started for it).",
  flags: { 'renderer-dir': { type: 'string' }, quiet: { type: 'boolean' } },
  async run(ctx) {
    const [folder, file, extra] = ctx.positionals;
    if (folder === undefined) throw new UsageError('missing FOLDER');
    if (extra !== undefined) throw new UsageError(`unexpected argument ${extra}`);
    requireNonEmpty(folder, 'FOLDER');
    requireNonEmpty(file, 'PATH');
    const target = await viewTarget(ctx, folder, file);
    const running = findRunningViewer(ctx.dataDir);
    if (running !== null) {
      await show(ctx, running.kind === 'app' ? target.appLink : `${running.url}${target.hash}`, running.kind);
      return;
    }
    await serveViewer(ctx, {
      command: 'view',
      rendererDir: typeof ctx.flags['renderer-dir'] === 'string' ? ctx.flags['renderer-dir'] : undefined,
      quiet: ctx.flags.quiet === true,
      idleMs: idleMs(),
      listening: (url) => show(ctx, `${url}${target.hash}`, 'started'),
    });
  },
};

async function show(ctx: CommandContext, url: string, viewer: 'serve' | 'app' | 'started'): Promise<void> {
  const opened = await openBrowser(url);
  if (ctx.json) return writeJson(ctx, { url, viewer, opened });
  const where =
    viewer === 'started'
      ? 'a viewer started here (it stops 5 minutes after its page is closed)'
      : `the running ${viewer === 'app' ? 'app' : 'hindsight serve'}`;
  if (opened) ctx.out.write(`Opened in ${where}: ${url}\n`);
  else ctx.out.write(`No browser could be opened here. Open this address (in ${where}):\n${url}\n`);
}

function idleMs(): number {
  const raw = process.env.HINDSIGHT_VIEW_IDLE_MS;
  if (raw === undefined || raw === '') return IDLE_MS;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new UsageError('HINDSIGHT_VIEW_IDLE_MS takes a whole number of milliseconds from 1');
  return Number(raw);
}
