import { spawn } from 'node:child_process';

// Hands a URL to the user's browser: the executable HINDSIGHT_BROWSER names (it gets the URL as
// its one argument), else the platform's opener (xdg-open only where a display is set, since
// without one it can open nothing). False when nothing could be started: the caller prints the URL.

export async function openBrowser(url: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const command = openerOf(env);
  if (command === null) return false;
  return new Promise((resolve) => {
    const child = spawn(command.file, [...command.args, url], { stdio: 'ignore', detached: true });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}

function openerOf(env: NodeJS.ProcessEnv): { file: string; args: string[] } | null {
  if (env.HINDSIGHT_BROWSER) return { file: env.HINDSIGHT_BROWSER, args: [] };
  if (process.platform === 'darwin') return { file: 'open', args: [] };
  // rundll32 hands the URL over as it is; `start` would read its & and ^ as the shell's.
  if (process.platform === 'win32') return { file: 'rundll32', args: ['url.dll,FileProtocolHandler'] };
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return { file: 'xdg-open', args: [] };
  return null;
}
