import { join } from 'node:path';

// Start at login on Linux desktops: Electron's login-item API covers macOS and Windows only, so
// there the app writes an XDG autostart entry (~/.config/autostart/hindsight.desktop), which
// every freedesktop session starts at login. Pure text and paths: tested without Electron.

export function autostartFile(home: string, env: NodeJS.ProcessEnv): string {
  const configHome = env.XDG_CONFIG_HOME?.startsWith('/') ? env.XDG_CONFIG_HOME : join(home, '.config');
  return join(configHome, 'autostart', 'hindsight.desktop');
}

/** One argument of an Exec key, quoted as the Desktop Entry Specification says. */
export function execArg(arg: string): string {
  if (/[\0\n\r]/.test(arg)) throw new Error(`an autostart entry cannot run an argument holding a NUL or a line break: ${JSON.stringify(arg)}`);
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) && !arg.includes('%')) return arg;
  // Inside double quotes: " ` $ \ escaped with a backslash; % doubled (field codes); then, as the
  // value of a desktop-entry string, every backslash doubled once more.
  const quoted = `"${arg.replace(/(["`$\\])/g, '\\$1').replace(/%/g, '%%')}"`;
  return quoted.replace(/\\/g, '\\\\');
}

export function autostartEntry(argv: readonly string[]): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Hindsight',
    'Comment=Record every change of your projects in the background',
    `Exec=${argv.map(execArg).join(' ')}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}
