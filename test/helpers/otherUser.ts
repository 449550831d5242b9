import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, cpSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI } from './runCli.js';
import { tempDir } from './tempDirs.js';

// Runs the built CLI as another user (nobody). The checkout may lie in a folder only its owner can
// enter (a clone in a `mktemp -d` folder is 0700), so the CLI and the one native package it loads
// at run time are copied to a temp folder that user can reach. When that is impossible here (not
// root, a temp folder or the node binary it cannot reach), the answer says why, for the skip note.

export const NOBODY = { uid: 65534, gid: 65534 };

const checkout = fileURLToPath(new URL('../..', import.meta.url));
// What `require('better-sqlite3')` loads at run time (scripts/build-cli.mjs keeps it external):
// the package's lib and its prebuilt addons (better-sqlite3 13 ships them, built on Node-API).
const RUNTIME_PACKAGES = ['better-sqlite3'];
const BUILD_ONLY = new Set(['deps', 'src']);

export type OtherUserCli = { run: (args: string[]) => SpawnSyncReturns<string> } | { reason: string };

export function cliAsNobody(): OtherUserCli {
  if (process.getuid?.() !== 0) return { reason: 'only root can start a child as another user' };
  const stage = tempDir('hindsight-cli-for-nobody-');
  const cli = join(stage, relative(checkout, CLI));
  cpSync(dirname(CLI), dirname(cli), { recursive: true });
  for (const name of RUNTIME_PACKAGES) {
    const from = join(checkout, 'node_modules', name);
    cpSync(from, join(stage, 'node_modules', name), { recursive: true, filter: (path) => !BUILD_ONLY.has(path.split(sep).at(-1)!) });
  }
  openToAll(stage);
  // The copy worker beside the staged CLI: the test run points HINDSIGHT_COPY_WORKER into the checkout.
  const env = { ...process.env, HINDSIGHT_COPY_WORKER: join(dirname(cli), 'copyWorker.js') };
  const run = (args: string[]) => spawnSync(process.execPath, [cli, ...args], { ...NOBODY, env, encoding: 'utf8' });
  const probe = run(['config', '--help']);
  if (probe.error || probe.status !== 0) {
    const lines = probe.stderr.trim().split('\n');
    const why = probe.error?.message ?? lines.find((line) => /^\w*Error\b/.test(line)) ?? lines[0];
    return { reason: `user ${NOBODY.uid} cannot run ${process.execPath} ${cli} here: ${why}` };
  }
  return { run };
}

/** Folders 0755 and files readable by all, whatever the umask the copies were made under. */
function openToAll(dir: string): void {
  chmodSync(dir, 0o755);
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) openToAll(path);
    else chmodSync(path, stat.mode & 0o111 ? 0o755 : 0o644);
  }
}
