import { dirname, join } from 'node:path';
import { LAUNCHD_LABEL, launchdAgent } from './launchdAgent.js';
import type { ServiceSpec } from './serviceSpec.js';
import { SYSTEMD_UNIT_NAME, systemdUnit } from './systemdUnit.js';

// Where the background recorder's service file goes on this platform, what it says, and the
// service manager's commands that start, stop and ask about it.

export interface ServicePlan {
  /** The service manager, as the user knows it. */
  manager: 'systemd' | 'launchd';
  file: string;
  content: string;
  /** Run in order after the file is written: load it and start it now and at every login. */
  enable: string[][];
  /** Run before the file is removed: stop it and take it out of the logins. */
  disable: string[][];
  /** Exit 0 when it runs. */
  isActive: string[];
  /**
   * The folders an install may make on the way to its file (and the service manager beside it),
   * deepest first: an uninstall removes each one left empty, and never one that holds anything else.
   */
  madeFolders: string[];
  /** Folders that hold nothing but the service's own files (its log): an uninstall removes them whole. */
  ownFolders: string[];
}

export interface ServiceHost {
  platform: NodeJS.Platform;
  home: string;
  uid: number;
  env: NodeJS.ProcessEnv;
}

export class UnsupportedPlatformError extends Error {}

export function servicePlan(host: ServiceHost, spec: ServiceSpec): ServicePlan {
  if (host.platform === 'linux') {
    const ownConfigHome = host.env.XDG_CONFIG_HOME?.startsWith('/') ? host.env.XDG_CONFIG_HOME : undefined;
    const configHome = ownConfigHome ?? join(host.home, '.config');
    const systemctl = (...args: string[]) => ['systemctl', '--user', ...args];
    const units = join(configHome, 'systemd', 'user');
    return {
      manager: 'systemd',
      file: join(configHome, 'systemd', 'user', SYSTEMD_UNIT_NAME),
      content: systemdUnit(spec),
      enable: [systemctl('daemon-reload'), systemctl('enable', '--now', SYSTEMD_UNIT_NAME)],
      disable: [systemctl('disable', '--now', SYSTEMD_UNIT_NAME)],
      isActive: systemctl('is-active', '--quiet', SYSTEMD_UNIT_NAME),
      // default.target.wants: where `systemctl enable` links the unit (disable leaves it behind).
      // A config folder the user named is theirs: only the default one may have been made here.
      madeFolders: [join(units, 'default.target.wants'), units, join(configHome, 'systemd'), ...(ownConfigHome ? [] : [configHome])],
      ownFolders: [],
    };
  }
  if (host.platform === 'darwin') {
    const file = join(host.home, 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`);
    const domain = `gui/${host.uid}`;
    const logs = join(host.home, 'Library', 'Logs', 'Hindsight');
    return {
      manager: 'launchd',
      file,
      content: launchdAgent(spec, join(logs, 'watch.log')),
      enable: [['launchctl', 'bootstrap', domain, file]],
      disable: [['launchctl', 'bootout', `${domain}/${LAUNCHD_LABEL}`]],
      isActive: ['launchctl', 'print', `${domain}/${LAUNCHD_LABEL}`],
      madeFolders: [dirname(file)],
      ownFolders: [logs],
    };
  }
  throw new UnsupportedPlatformError(
    `there is no background service for ${host.platform} yet; run \`hindsight watch --all\` at login instead (Task Scheduler on Windows)`,
  );
}
