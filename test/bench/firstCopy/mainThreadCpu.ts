import { readFileSync } from 'node:fs';
import { CLOCK_TICKS } from '../record/procStats.js';

// CPU time of this process's main thread alone (its task's utime + stime in /proc), in ms: what
// the critical path of a first copy costs whatever the copy workers do beside it. process.cpuUsage
// counts every thread, so it cannot tell the main thread's share. Undefined where /proc is absent.

export function mainThreadCpuMs(): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS) * 1000;
  } catch {
    return undefined;
  }
}
