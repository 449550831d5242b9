import { app } from 'electron';
import type { ContractClient } from '../../shared/contract/client.js';
import type { AppCommand } from '../../shared/contract.js';
import { knownTarget, OPEN_LINK_SCHEME, parseOpenLink } from '../../shared/openLink.js';

// hindsight://open?path=…&line=… from an editor task or a terminal link: the app is the URL's
// handler (electron-builder.yml `protocols`), and the link reaches it by 'open-url' (macOS) or on a
// second instance's command line. Any web page can fire one, so it only ever shows a file of a
// project the history process already knows (shared/openLink.ts decides); never opens, records
// or restores. Anything else is dropped with a line on stderr.

export function registerOpenLinks(packaged: boolean): void {
  // Unpackaged, Electron runs with the app folder as its argument: the handler must name it.
  if (packaged) app.setAsDefaultProtocolClient(OPEN_LINK_SCHEME);
  else if (process.argv[1]) app.setAsDefaultProtocolClient(OPEN_LINK_SCHEME, process.execPath, [process.argv[1]]);
}

/** The hindsight:// URL among a command line's arguments, if any. */
export function linkFromArgv(argv: readonly string[]): string | null {
  return argv.find((arg) => arg.toLowerCase().startsWith(`${OPEN_LINK_SCHEME}:`)) ?? null;
}

/** The viewer command a link asks for, or null (not a link, or no known project holds its path). */
export async function openLinkCommand(url: string, client: ContractClient): Promise<AppCommand | null> {
  try {
    const link = parseOpenLink(url);
    const projects = await client.calls.listProjects({});
    if (!projects.ok) return null;
    const rules = { windows: process.platform === 'win32', caseless: process.platform !== 'linux' };
    const target = knownTarget(link, projects.value, rules);
    if (target === null) console.error(`hindsight: ${link.path} is in no project Hindsight knows: the link is ignored`);
    return target === null ? null : { command: 'openLink', ...target };
  } catch (error) {
    console.error(`hindsight: ${(error as Error).message}`);
    return null;
  }
}
