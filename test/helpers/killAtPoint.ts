import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { finished, type CliResult } from './runCli.js';
import { until } from './until.js';

// A child started with HINDSIGHT_STOP_AT=<point> stops itself there (electron/history/faultPoint.ts):
// this waits for it to say so and to be really stopped, then SIGKILLs it, so it dies exactly at
// the point. A signal sent before the stop is taken would be lost to it.

export async function killAtPoint(child: ChildProcess, point: string): Promise<CliResult> {
  const done = finished(child);
  await stoppedAtPoint(child, point);
  child.kill('SIGKILL');
  return done;
}

/** Resolves once the child said it stopped at `point` and is really stopped (SIGCONT lets it go on). */
export async function stoppedAtPoint(child: ChildProcess, point: string): Promise<void> {
  await new Promise<void>((resolve) => child.stderr!.on('data', (chunk: Buffer) => chunk.toString().includes(`stopped at ${point}`) && resolve()));
  await until(() => /^\d+ \(.*\) T/.test(readFileSync(`/proc/${child.pid}/stat`, 'utf8')), { everyMs: 5 });
}
