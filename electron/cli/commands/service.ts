import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { HindsightError } from '../../../shared/errors.js';
import { homedir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { atomicWrite } from '../../history/config/atomicWrite.js';
import { UsageError, writeJson, type Command, type CommandContext } from '../command.js';
import { servicePlan, UnsupportedPlatformError, type ServicePlan } from '../service/servicePlan.js';

// `hindsight service install [--no-enable] | uninstall | status`: the background recorder as a
// service of the user's session (a systemd user unit on Linux, a launchd agent on macOS) that runs
// `hindsight watch --all` for this data folder from login on. `install --no-enable` writes the file
// and lists the service manager's commands that would start it, without running them.

export interface ServiceResult {
  action: 'install' | 'uninstall' | 'status';
  manager: ServicePlan['manager'];
  file: string;
  installed: boolean;
  /** The file was written (install) or removed (uninstall) by this run; unchanged otherwise. */
  changed: boolean;
  /** Whether it runs now: null when the service manager could not be asked. */
  active: boolean | null;
  /** The service manager's commands this run left for the user to run (start or stop failed, or --no-enable). */
  todo: string[];
  /** The folders an uninstall removed: those an install made, left empty, and the service's log folder. */
  foldersRemoved: string[];
}

export const serviceCommand: Command = {
  name: 'service',
  usage: 'service install [--no-enable] | service uninstall | service status',
  summary: 'Record every known project in the background from login on (systemd user unit, launchd agent).',
  flags: { 'no-enable': { type: 'boolean' } },
  async run(ctx) {
    const [action, ...rest] = ctx.positionals;
    if (rest.length > 0) throw new UsageError(`unexpected argument ${rest[0]}`);
    if (action !== 'install' && action !== 'uninstall' && action !== 'status') {
      throw new UsageError(
        action === undefined ? 'missing install, uninstall or status' : `unknown action ${JSON.stringify(action)}: use install, uninstall or status`,
      );
    }
    if (action !== 'install' && ctx.flags['no-enable'] !== undefined) throw new UsageError('--no-enable goes with install');
    const plan = planHere(ctx);
    if (action === 'install') requireDataFolder(ctx.dataDir);
    const enable = ctx.flags['no-enable'] !== true;
    const result = action === 'install' ? await install(plan, enable) : action === 'uninstall' ? uninstall(plan) : status(plan);
    if (ctx.json) writeJson(ctx, result);
    else ctx.out.write(describe(result));
    return result.todo.length > 0 && enable && action !== 'status' ? 1 : 0;
  },
};

function planHere(ctx: CommandContext): ServicePlan {
  try {
    return servicePlan(
      { platform: process.platform, home: homedir(), uid: userInfo().uid, env: process.env },
      { node: process.execPath, cli: join(ctx.cliDir, 'hindsight.js'), dataDir: ctx.dataDir },
    );
  } catch (error) {
    if (error instanceof UnsupportedPlatformError) throw new UsageError(error.message);
    throw error;
  }
}

async function install(plan: ServicePlan, enable: boolean): Promise<ServiceResult> {
  mkdirSync(dirname(plan.file), { recursive: true });
  const current = existsSync(plan.file) ? readFileSync(plan.file, 'utf8') : null;
  const changed = current !== plan.content;
  if (changed) await atomicWrite(plan.file, plan.content, { mode: 0o644 });
  const todo = enable ? runAll(plan.enable) : plan.enable.map(shown);
  return { action: 'install', manager: plan.manager, file: plan.file, installed: true, changed, active: isActive(plan), todo, foldersRemoved: [] };
}

function uninstall(plan: ServicePlan): ServiceResult {
  const installed = existsSync(plan.file);
  // Stopped before the file goes: the service manager needs the file to know what to stop. The
  // file goes either way; what could not be run is listed for the user.
  const todo = installed ? runAll(plan.disable) : [];
  if (installed) rmSync(plan.file, { force: true });
  const foldersRemoved = removeFolders(plan);
  return {
    action: 'uninstall',
    manager: plan.manager,
    file: plan.file,
    installed: false,
    changed: installed,
    active: installed ? isActive(plan) : false,
    todo,
    foldersRemoved,
  };
}

/**
 * A service records into the data folder it is given, which must be there: a path typed wrong
 * would start a service that records into a new, empty history nobody looks at.
 */
function requireDataFolder(dataDir: string): void {
  const stat = statSync(dataDir, { throwIfNoEntry: false });
  if (!stat) {
    throw new HindsightError(
      'FOLDER_NOT_FOUND',
      `The data folder ${dataDir} does not exist: a service records into an existing history. Check --data-dir (or HINDSIGHT_DATA_DIR), or open a project with it first.`,
      { path: dataDir },
    );
  }
  if (!stat.isDirectory()) throw new HindsightError('NOT_A_FOLDER', `The data folder ${dataDir} is not a folder.`, { path: dataDir });
}

/** The service's own folders, then each folder an install made that is empty now (rmdir refuses any other). */
function removeFolders(plan: ServicePlan): string[] {
  const removed: string[] = [];
  for (const folder of plan.ownFolders) {
    if (!existsSync(folder)) continue;
    rmSync(folder, { recursive: true, force: true });
    removed.push(folder);
  }
  for (const folder of plan.madeFolders) {
    try {
      rmdirSync(folder);
      removed.push(folder);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    }
  }
  return removed;
}

function status(plan: ServicePlan): ServiceResult {
  const installed = existsSync(plan.file);
  return {
    action: 'status',
    manager: plan.manager,
    file: plan.file,
    installed,
    changed: false,
    active: installed ? isActive(plan) : false,
    todo: [],
    foldersRemoved: [],
  };
}

/** Runs each command; the ones that failed (and those after them) come back for the user to run. */
function runAll(commands: string[][]): string[] {
  for (let i = 0; i < commands.length; i += 1) {
    const [command, ...args] = commands[i]!;
    const run = spawnSync(command!, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', timeout: 30_000 });
    if (run.error || run.status !== 0) return commands.slice(i).map(shown);
  }
  return [];
}

function isActive(plan: ServicePlan): boolean | null {
  const [command, ...args] = plan.isActive;
  const run = spawnSync(command!, args, { stdio: 'ignore', timeout: 10_000 });
  if (run.error) return null;
  // systemctl is-active: 0 active, 3 inactive; anything else (no user session bus) is "cannot tell".
  if (run.status === 0) return true;
  return plan.manager === 'systemd' && run.status !== 3 ? null : false;
}

function shown(argv: string[]): string {
  return argv.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)).join(' ');
}

function folders(removed: string[]): string {
  return removed.length === 0 ? '' : `\nRemoved the folder${removed.length === 1 ? '' : 's'} it made: ${removed.join(', ')}.`;
}

function describe(result: ServiceResult): string {
  const what = result.manager === 'systemd' ? 'systemd user unit' : 'launchd agent';
  const running = result.active === null ? 'whether it runs could not be asked' : result.active ? 'it is running' : 'it is not running';
  const first = {
    install: `${result.changed ? 'Wrote' : 'Already installed:'} the ${what} ${result.file}, which records every known project (hindsight watch --all); ${running}.`,
    uninstall: `${result.changed ? `Removed the ${what} ${result.file}; ${running}.` : `No ${what} was installed (${result.file}).`}${folders(result.foldersRemoved)}`,
    status: result.installed ? `The ${what} ${result.file} is installed; ${running}.` : `No ${what} is installed (${result.file}).`,
  }[result.action];
  const todo = result.todo.length > 0 ? `To finish, run:\n${result.todo.map((c) => `  ${c}`).join('\n')}\n` : '';
  return `${first}\n${todo}`;
}
