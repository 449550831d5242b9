import { serviceArgv, type ServiceSpec } from './serviceSpec.js';

// The systemd user unit that runs `hindsight watch --all` for Linux desktops and servers
// (systemctl --user). SIGTERM is how systemd stops it, which `watch --all` takes as "write every
// open change group, then exit"; TimeoutStopSec leaves room for that.

export const SYSTEMD_UNIT_NAME = 'hindsight-watch.service';

/**
 * One argument of ExecStart, quoted as systemd's own parser reads it: inside double quotes a
 * backslash and a double quote are escaped, and `%` (a specifier) is doubled; `$` is doubled so no
 * environment variable is substituted.
 */
export function systemdArg(arg: string): string {
  if (/[\0\n\r]/.test(arg)) throw new Error(`a service cannot run a path holding a NUL or a line break: ${JSON.stringify(arg)}`);
  const escaped = arg.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%').replace(/\$/g, '$$$$');
  return `"${escaped}"`;
}

export function systemdUnit(spec: ServiceSpec): string {
  return [
    '[Unit]',
    'Description=Hindsight: record every change of every known project',
    'After=default.target',
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${serviceArgv(spec).map(systemdArg).join(' ')}`,
    'Restart=on-failure',
    'RestartSec=10',
    'KillMode=mixed',
    'TimeoutStopSec=60',
    // Recording must never be what the user notices: the lowest CPU and I/O priority.
    'Nice=19',
    'IOSchedulingClass=idle',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}
