import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';

// Runs one command as a whole process and measures it: wall time (ours), CPU (user + sys) and
// peak RSS from GNU time, which reads the rusage of the child and everything it waited for. A
// pipeline is run as `sh -c`, so its cost includes every stage.

export interface ProcessMeasure {
  wallMs: number;
  /** user + sys of the process and its children; NaN without /usr/bin/time. */
  cpuMs: number;
  /** Largest resident set of the process or of any child it waited for, in KiB. */
  maxRssKb: number;
  stdout: string;
  stderr: string;
  code: number;
}

const TIME = '/usr/bin/time';

export function canMeasureCpu(): boolean {
  return existsSync(TIME);
}

export function measureProcess(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<ProcessMeasure> {
  const report = join(tmpdir(), `hindsight-bench-time-${randomUUID()}`);
  const withTime = canMeasureCpu();
  const argv = withTime ? ['-f', '%U %S %M', '-o', report, command, ...args] : [...args];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(withTime ? TIME : command, argv, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      let cpuMs = NaN;
      let maxRssKb = NaN;
      if (withTime && existsSync(report)) {
        const last = readFileSync(report, 'utf8').trim().split('\n').at(-1) ?? '';
        const [user, sys, rss] = last.split(' ').map(Number);
        cpuMs = ((user ?? NaN) + (sys ?? NaN)) * 1000;
        maxRssKb = rss ?? NaN;
        rmSync(report, { force: true });
      }
      resolve({ wallMs, cpuMs, maxRssKb, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString(), code: code ?? -1 });
    });
  });
}

/** Runs a shell pipeline (for tar | tar) through measureProcess. */
export function measureShell(script: string, options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<ProcessMeasure> {
  return measureProcess('/bin/sh', ['-c', script], options);
}
