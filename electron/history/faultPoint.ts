import { writeSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

// Fault-injection points for the kill and race tests: with HINDSIGHT_STOP_AT=<name>, the process
// that first reaches <name> says so on stderr and stops itself (SIGSTOP), so a test can SIGKILL it
// there, or do something else meanwhile and let it go on (SIGCONT). Each point stops once per
// process. Without the variable it does nothing.
//
// With HINDSIGHT_FAIL_AT=<name>:<CODE> (e.g. watch-setup:ENOSPC), a failure point throws the
// error the OS gives with that code, every time it is reached: for limits a test cannot reach
// for real without disturbing everything else on the machine (inotify's watches).

export type FaultPoint =
  | 'prune-planned'
  | 'prune-transaction'
  | 'prune-between-chunks'
  | 'prune-marked'
  | 'prune-deleting'
  | 'record-commit'
  | 'archive-pushed'
  | 'archive-removing'
  | 'compact-temp-written'
  | 'compact-placed'
  | 'read-between-looks'
  | 'chunks-placed'
  | 'list-placed'
  | 'baseline-batch-staged'
  | 'restore-step-taken'
  | 'restore-cleared'
  | 'restore-written'
  | 'restore-committed'
  | 'import-registering'
  | 'pull-writing'
  | 'schema-migrated'
  | 'spellings-joining'
  | 'twin-merging'
  | 'twin-merged';

const passed = new Set<FaultPoint>();

export function faultPoint(name: FaultPoint): void {
  if (process.env.HINDSIGHT_STOP_AT !== name || passed.has(name)) return;
  passed.add(name);
  // Written to the descriptor itself: on a worker thread (the copy workers' points) process.stderr
  // hands its bytes to the main thread, which would not write them before the stop.
  writeSync(2, `stopped at ${name}\n`);
  process.kill(process.pid, 'SIGSTOP');
  // Node blocks signals on worker threads: the main thread takes the stop and stops the others
  // a moment later. A worker waits here meanwhile, so it stops at its point, not a few steps on.
  if (!isMainThread) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, WORKER_STOP_WAIT_MS);
}

const WORKER_STOP_WAIT_MS = 500;

export type FailurePoint = 'watch-setup' | 'restore-commit';

export function failurePoint(name: FailurePoint): void {
  const [point, code] = (process.env.HINDSIGHT_FAIL_AT ?? '').split(':');
  if (point !== name || !code) return;
  throw Object.assign(new Error(`${code}: failure injected at ${name}`), { code, syscall: name === 'watch-setup' ? 'watch' : 'write' });
}
