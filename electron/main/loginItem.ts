import { app } from 'electron';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { autostartEntry, autostartFile } from './autostartEntry.js';

// "Start at login": Electron's login-item API on macOS and Windows, an XDG autostart entry on
// Linux. A start at login passes BACKGROUND_ARG, and such a start opens no window: it records
// behind the tray icon until the user opens Hindsight.

export const BACKGROUND_ARG = '--background';

export function applyStartAtLogin(enabled: boolean): void {
  if (process.platform === 'linux') {
    const file = autostartFile(homedir(), process.env);
    if (!enabled) return rmSync(file, { force: true });
    // The packaged app is its own executable; a development run is Electron with the app's folder.
    const argv = [process.execPath, ...(app.isPackaged ? [] : [app.getAppPath()]), BACKGROUND_ARG];
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, autostartEntry(argv), { mode: 0o644 });
    return;
  }
  app.setLoginItemSettings({ openAtLogin: enabled, args: [BACKGROUND_ARG] });
}

/** Whether this start was a start at login (no window then). */
export function startedAtLogin(argv: readonly string[]): boolean {
  if (argv.includes(BACKGROUND_ARG)) return true;
  return process.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin === true;
}
