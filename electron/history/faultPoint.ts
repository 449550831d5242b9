// Fault-injection points for the kill and race tests: with HINDSIGHT_STOP_AT=<name>, the process
// that first reaches <name> says so on stderr and stops itself (SIGSTOP), so a test can SIGKILL it
// there, or do something else meanwhile and let it go on (SIGCONT). Each point stops once per
// process. Without the variable it does nothing.

export type FaultPoint = 'prune-planned' | 'prune-transaction' | 'prune-between-chunks' | 'prune-marked' | 'prune-deleting' | 'record-commit' | 'archive-pushed' | 'archive-removing';

const passed = new Set<FaultPoint>();

export function faultPoint(name: FaultPoint): void {
  if (process.env.HINDSIGHT_STOP_AT !== name || passed.has(name)) return;
  passed.add(name);
  process.stderr.write(`stopped at ${name}\n`);
  process.kill(process.pid, 'SIGSTOP');
}
