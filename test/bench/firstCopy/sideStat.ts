import { stat } from 'node:fs/promises';

// The side probe of scenario (c): an fs.promises.stat every few milliseconds in the process that
// is copying, as any other file work of the app would be. It records how long each stat took
// from call to answer, and how late each one started (the event loop's delay).

export interface SideStatReport {
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Largest delay between when a stat was due and when it was called. */
  maxLateMs: number;
}

export function startSideStat(target: string, everyMs = 5): { stop: () => Promise<SideStatReport> } {
  const latencies: number[] = [];
  let maxLate = 0;
  let running = true;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();

  const tick = (due: number) => {
    if (!running) return;
    const started = performance.now();
    maxLate = Math.max(maxLate, started - due);
    inFlight = stat(target).then(
      () => void latencies.push(performance.now() - started),
      () => void latencies.push(performance.now() - started),
    );
    // Late ticks are not made up in a burst: the next one is due a period after this one, or now.
    const nextDue = Math.max(due + everyMs, started);
    timer = setTimeout(() => tick(nextDue), Math.max(0, nextDue - performance.now()));
  };
  tick(performance.now());

  return {
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      await inFlight;
      const sorted = [...latencies].sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
      return { count: sorted.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: sorted.at(-1) ?? NaN, maxLateMs: maxLate };
    },
  };
}
