import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';

// What the numbers were measured on, for the report's header.

export interface MachineInfo {
  cores: number;
  cpu: string;
  memoryGiB: number;
  kernel: string;
  node: string;
  disk: string;
  commit: string;
  /** 1-minute load average when the report was written: other work on the machine shows here. */
  load1: number;
}

export function machineInfo(folder: string): MachineInfo {
  return {
    cores: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    kernel: release(),
    node: process.version,
    disk: tryRun('sh', ['-c', `df -hT ${JSON.stringify(folder)} | tail -1 | awk '{print $1" "$2" "$3" total"}'`]),
    commit: builtFrom() ?? `${tryRun('git', ['rev-parse', '--short=12', 'HEAD'])} (HEAD when the report was written)`,
    load1: Math.round(loadavg()[0]! * 10) / 10,
  };
}

/** The commit the rig was built from (out/bench/build.json, written by scripts/build-bench.mjs). */
function builtFrom(): string | undefined {
  try {
    const build = JSON.parse(readFileSync(new URL('./build.json', import.meta.url), 'utf8')) as { commit: string; dirty: boolean; builtAt: string };
    return `${build.commit}${build.dirty ? ' + uncommitted changes' : ''} (built ${build.builtAt})`;
  } catch {
    return undefined;
  }
}

function tryRun(command: string, args: string[]): string {
  try {
    return execFileSync(command, args, { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}
