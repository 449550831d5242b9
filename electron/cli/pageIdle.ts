// When a viewer started for `hindsight view` may stop: it is told the number of pages connected
// each time one connects or goes away, and once none is left (or none came since the start) it
// arms one countdown of `idleMs`, which a page connecting meanwhile disarms. The timer functions
// are handed in so a test counts the armings instead of waiting.

export interface PageIdleTimers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export interface PageIdle {
  pages(count: number): void;
  /** Disarms the countdown for good. */
  clear(): void;
}

const NODE_TIMERS: PageIdleTimers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export function pageIdle(idleMs: number, say: (line: string) => void, stop: () => void, timers: PageIdleTimers = NODE_TIMERS): PageIdle {
  let armed: unknown = undefined;
  let seen = false;
  // Once cleared (the host is stopping), the pages its close ends arm nothing.
  let ended = false;
  const disarm = (): void => {
    if (armed !== undefined) timers.clear(armed);
    armed = undefined;
  };
  return {
    pages: (count) => {
      if (ended) return;
      if (count > 0) {
        seen = true;
        return disarm();
      }
      if (armed !== undefined) return;
      say(`${seen ? 'The viewer page was closed' : 'No viewer page is open'}: Hindsight stops in ${spell(idleMs)} unless one opens.`);
      armed = timers.set(() => {
        say(`No viewer page for ${spell(idleMs)}: Hindsight stopped.`);
        stop();
      }, idleMs);
    },
    clear: () => {
      ended = true;
      disarm();
    },
  };
}

function spell(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}`;
  return `${ms / 1000} s`;
}
