import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

// What /proc says of a running process, read without disturbing it: CPU ticks (utime + stime of
// every thread), resident memory now and at its peak, and its read system calls. A process's
// threads (Node's worker threads and libuv's pool) are in these figures already; processes it
// started are listed as children and counted apart.

export interface ProcSample {
  /** utime + stime, in clock ticks. */
  cpuTicks: number;
  rssKb: number;
  hwmKb: number;
  /** read-type system calls (read, pread64, readv...) on any descriptor: files, pipes, eventfds. */
  syscr: number;
  /** bytes those calls returned. */
  rchar: number;
  /** bytes read from storage (0 when the page cache served them). */
  readBytes: number;
  threads: number;
}

export const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

export function sampleProcess(pid: number): ProcSample {
  // The command name may hold spaces or parentheses: the fields start after its closing one.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const status = keyed(readFileSync(`/proc/${pid}/status`, 'utf8'));
  const io = keyed(readFileSync(`/proc/${pid}/io`, 'utf8'));
  return {
    cpuTicks: Number(fields[11]) + Number(fields[12]),
    rssKb: parseInt(status.get('VmRSS') ?? 'NaN', 10),
    hwmKb: parseInt(status.get('VmHWM') ?? 'NaN', 10),
    syscr: Number(io.get('syscr')),
    rchar: Number(io.get('rchar')),
    readBytes: Number(io.get('read_bytes')),
    threads: Number(status.get('Threads')),
  };
}

/** How many times the process's threads went to sleep and were woken (voluntary context switches, every thread). */
export function wakeups(pid: number): number {
  let total = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(keyed(readFileSync(`/proc/${pid}/task/${task}/status`, 'utf8')).get('voluntary_ctxt_switches') ?? 0);
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return total;
}

/** The processes `pid` started that still run (every thread's children). */
export function childProcesses(pid: number): number[] {
  const children: number[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const listed = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
    if (listed) children.push(...listed.split(' ').map(Number));
  }
  return children;
}

/**
 * Sets the process's peak resident size back to its current one (clear_refs 5), so a later VmHWM
 * is the peak of what came after. False where the kernel refuses it.
 */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

export function cpuPercentOfOneCore(before: ProcSample, after: ProcSample, wallMs: number): number {
  return ((after.cpuTicks - before.cpuTicks) / CLOCK_TICKS / (wallMs / 1000)) * 100;
}

function keyed(text: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) map.set(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return map;
}
