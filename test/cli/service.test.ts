import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAUNCHD_LABEL, launchdAgent } from '../../electron/cli/service/launchdAgent.js';
import { servicePlan, UnsupportedPlatformError } from '../../electron/cli/service/servicePlan.js';
import { systemdUnit } from '../../electron/cli/service/systemdUnit.js';
import { CLI, runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';

// `hindsight service install|uninstall|status`: the file that runs `hindsight watch --all` from
// login on (a systemd user unit here; the launchd agent's content on macOS). No service manager is
// started: the tests point systemctl at a session bus that does not exist, so it fails at once.

const hasSystemdAnalyze = spawnSync('systemd-analyze', ['--version'], { stdio: 'ignore' }).status === 0;
const hasPython = spawnSync('python3', ['--version'], { stdio: 'ignore' }).status === 0;

/** A home folder of its own and no reachable user session bus. */
function session() {
  const home = tempDir('hindsight-home-');
  // A data folder whose name systemd and a shell would both misread if it were not quoted.
  const dataDir = join(home, 'data 100% $HOME "q" \\x');
  mkdirSync(dataDir);
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: '',
    XDG_RUNTIME_DIR: join(home, 'no-runtime'),
    DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(home, 'no-bus')}`,
    HINDSIGHT_DATA_DIR: dataDir,
  };
  return { home, dataDir, env, unit: join(home, '.config/systemd/user/hindsight-watch.service') };
}

describe.runIf(process.platform === 'linux')('hindsight service on Linux (a systemd user unit)', () => {
  it('install --no-enable writes the unit that runs this Node and this CLI as watch --all for the data folder, and says how to start it', async () => {
    const { env, unit, dataDir } = session();
    const installed = await runCli(['service', 'install', '--no-enable'], env);
    expect(installed.code, installed.stderr).toBe(0);
    expect(readFileSync(unit, 'utf8')).toBe(systemdUnit({ node: process.execPath, cli: CLI, dataDir }));
    expect(statSync(unit).mode & 0o777).toBe(0o644);
    // systemd's quoting: \\ and \" inside double quotes, % doubled (a specifier), $ doubled (no expansion).
    const execStart = readFileSync(unit, 'utf8')
      .split('\n')
      .find((line) => line.startsWith('ExecStart='));
    expect(execStart).toBe(
      `ExecStart="${process.execPath}" "${CLI}" "watch" "--all" "--data-dir" "${dataDir.replace(' 100% $HOME "q" \\x', () => ' 100%% $$HOME \\"q\\" \\\\x')}"`,
    );
    const text = installed.stdout.toString('utf8');
    expect(text).toContain(`Wrote the systemd user unit ${unit}`);
    expect(text).toContain('systemctl --user enable --now hindsight-watch.service');

    const again = await runCli(['service', 'install', '--no-enable', '--json'], env);
    expect(JSON.parse(again.stdout.toString('utf8'))).toMatchObject({ action: 'install', manager: 'systemd', file: unit, installed: true, changed: false });
  });

  it.skipIf(!hasSystemdAnalyze)('writes a unit systemd-analyze verify accepts, its paths quoted so systemd takes % $ " and \\ in them', async () => {
    const { env, unit } = session();
    expect((await runCli(['service', 'install', '--no-enable'], env)).code).toBe(0);
    const verified = spawnSync('systemd-analyze', ['verify', unit], { encoding: 'utf8', env: { ...process.env, ...env } });
    expect(verified.status, verified.stderr).toBe(0);
  });

  it('installs, reports its status, and uninstalls; a service manager that cannot be asked is said, with the commands left to run', async () => {
    const { env, unit, home, dataDir } = session();
    const installed = await runCli(['service', 'install', '--json'], env);
    // No session bus: the unit is written, starting it fails, and the commands come back (exit 1).
    expect(installed.code).toBe(1);
    expect(JSON.parse(installed.stdout.toString('utf8'))).toMatchObject({
      installed: true,
      changed: true,
      active: null,
      todo: ['systemctl --user daemon-reload', 'systemctl --user enable --now hindsight-watch.service'],
    });
    const status = await runCli(['service', 'status', '--json'], env);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout.toString('utf8'))).toMatchObject({ action: 'status', installed: true, active: null, file: unit });

    const removed = await runCli(['service', 'uninstall'], env);
    expect(existsSync(unit)).toBe(false);
    expect(removed.stdout.toString('utf8')).toContain(`Removed the systemd user unit ${unit}`);
    // The folders the install made on the way to its unit go too: the home is as it was.
    expect(removed.stdout.toString('utf8')).toContain(`Removed the folders it made: ${join(home, '.config/systemd/user')}, `);
    expect(readdirSync(home).sort()).toEqual([basename(dataDir)]);
    const none = await runCli(['service', 'uninstall'], env);
    expect(none.code).toBe(0);
    expect(none.stdout.toString('utf8')).toBe(`No systemd user unit was installed (${unit}).\n`);
    const after = await runCli(['service', 'status'], env);
    expect(after.stdout.toString('utf8')).toBe(`No systemd user unit is installed (${unit}).\n`);
  });

  it('uninstall keeps a folder on the way that holds anything else, and says which it removed', async () => {
    const { env, home } = session();
    expect((await runCli(['service', 'install', '--no-enable'], env)).code).toBe(0);
    const other = join(home, '.config/systemd/user/other.service');
    writeFileSync(other, '[Service]\n');
    const removed = await runCli(['service', 'uninstall', '--json'], env);
    expect(JSON.parse(removed.stdout.toString('utf8'))).toMatchObject({ action: 'uninstall', changed: true, foldersRemoved: [] });
    expect(readFileSync(other, 'utf8')).toBe('[Service]\n');
  });

  it('install refuses a data folder that does not exist, and writes nothing', async () => {
    const { env, home, unit } = session();
    const missing = join(home, 'no such data');
    for (const args of [
      ['--data-dir', missing],
      ['--no-enable', '--data-dir', missing],
    ]) {
      const refused = await runCli(['service', 'install', ...args], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(
        `hindsight service: The data folder ${missing} does not exist: a service records into an existing history. Check --data-dir (or HINDSIGHT_DATA_DIR), or open a project with it first.\n`,
      );
    }
    const viaEnv = await runCli(['service', 'install', '--no-enable'], { ...env, HINDSIGHT_DATA_DIR: missing });
    expect([viaEnv.code, viaEnv.stderr]).toEqual([1, expect.stringContaining(`The data folder ${missing} does not exist`)]);
    expect(existsSync(unit)).toBe(false);
    expect(existsSync(join(home, '.config'))).toBe(false);
    expect(existsSync(missing)).toBe(false);
  });

  it('refuses bad usage with exit 2', async () => {
    const { env } = session();
    for (const args of [['service'], ['service', 'start'], ['service', 'status', '--no-enable'], ['service', 'install', 'now']]) {
      const run = await runCli(args, env);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/^hindsight service: /);
    }
  });
});

describe('the service files of each platform', () => {
  const spec = { node: '/opt/node 22/bin/node', cli: '/Applications/Hind & sight/<cli>.js', dataDir: "/Users/me/Library/Application Support/Hindsight 'x'" };

  it("puts the launchd agent in ~/Library/LaunchAgents and loads it in the user's GUI domain", () => {
    const plan = servicePlan({ platform: 'darwin', home: '/Users/me', uid: 501, env: {} }, spec);
    expect(plan.file).toBe(`/Users/me/Library/LaunchAgents/${LAUNCHD_LABEL}.plist`);
    expect(plan.enable).toEqual([['launchctl', 'bootstrap', 'gui/501', plan.file]]);
    expect(plan.disable).toEqual([['launchctl', 'bootout', `gui/501/${LAUNCHD_LABEL}`]]);
    // Its log folder is the service's own; LaunchAgents goes only if the install made it and it is empty.
    expect([plan.ownFolders, plan.madeFolders]).toEqual([['/Users/me/Library/Logs/Hindsight'], ['/Users/me/Library/LaunchAgents']]);
  });

  it.skipIf(!hasPython)('writes a launchd agent that is a valid property list running watch --all with every argument intact', () => {
    const plist = launchdAgent(spec, '/Users/me/Library/Logs/Hindsight/watch.log');
    const parsed = spawnSync('python3', ['-c', 'import json, plistlib, sys; print(json.dumps(plistlib.loads(sys.stdin.buffer.read())))'], {
      input: plist,
      encoding: 'utf8',
    });
    expect(parsed.status, parsed.stderr).toBe(0);
    expect(JSON.parse(parsed.stdout)).toEqual({
      Label: LAUNCHD_LABEL,
      ProgramArguments: [spec.node, spec.cli, 'watch', '--all', '--data-dir', spec.dataDir],
      RunAtLoad: true,
      KeepAlive: { SuccessfulExit: false },
      ProcessType: 'Background',
      LowPriorityIO: true,
      Nice: 19,
      ExitTimeOut: 60,
      StandardErrorPath: '/Users/me/Library/Logs/Hindsight/watch.log',
    });
  });

  it('follows XDG_CONFIG_HOME for the systemd unit, and says what to do where there is no service manager', () => {
    expect(servicePlan({ platform: 'linux', home: '/home/me', uid: 1000, env: { XDG_CONFIG_HOME: '/cfg' } }, spec).file).toBe(
      '/cfg/systemd/user/hindsight-watch.service',
    );
    expect(servicePlan({ platform: 'linux', home: '/home/me', uid: 1000, env: { XDG_CONFIG_HOME: 'relative' } }, spec).file).toBe(
      '/home/me/.config/systemd/user/hindsight-watch.service',
    );
    expect(() => servicePlan({ platform: 'win32', home: 'C:\\Users\\me', uid: -1, env: {} }, spec)).toThrow(UnsupportedPlatformError);
    expect(() => systemdUnit({ ...spec, dataDir: '/a\nb' })).toThrow(/line break/);
  });
});
