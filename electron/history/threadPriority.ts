import { getPriority, setPriority } from 'node:os';

// Background worker threads yield the cores to everything else. The prune planner, the search
// index build and the app's push packing take the lowest priority: they must never slow a first
// copy or a recorded change, and on a machine with few cores a thread at normal priority takes
// CPU time from the copy workers. The copy workers take a little less than normal
// (store/copyWorker.ts). On Linux, priority of "process 0" is the calling thread's alone
// (setpriority with who = 0 acts on the thread); elsewhere it would be the whole app's, so the
// thread keeps its priority there.

export const LOWEST_PRIORITY = 19;

// A first copy is background work: on Linux the nice value is per thread, so this lowers only
// a copy worker, and the history process's event loop and libuv pool (a stat, a page of the
// viewer) get a core as soon as they need one. On an idle machine it costs the copy nothing.
// Only a little lower: at 10 each worker weighs a tenth of a normal thread, and on a busy machine
// the copy crawled behind everything else (docs/PERFORMANCE.md, "Copy worker priority").
export const COPY_WORKER_NICE = 5;

/** Gives the calling thread the niceness `nice` (Linux); answers its niceness now, or null where it was left alone. */
export function threadPriority(nice: number): number | null {
  if (process.platform !== 'linux') return null;
  try {
    setPriority(0, nice);
    return getPriority(0);
  } catch {
    return null;
  }
}

/** Gives the calling thread the lowest priority (Linux); answers its niceness now, or null where it was left alone. */
export function lowestThreadPriority(): number | null {
  return threadPriority(LOWEST_PRIORITY);
}
