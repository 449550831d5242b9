// One clock for every relative time on screen ("22 seconds ago" keeps counting): a single timer
// while anything shows a relative time, none when nothing does. Each reader subscribes with
// useSyncExternalStore and re-renders only when its own words change.

type Listener = () => void;

const listeners = new Set<Listener>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;

/** Seconds count in "22 seconds ago": the clock moves once a second while it is read. */
export const CLOCK_STEP_MS = 1000;

export function clockNow(): number {
  // Read before any reader subscribed (a first render): the time now, not the last tick.
  return timer === undefined ? Date.now() : now;
}

/** Moves the clock to `at` (the timer's step; tests call it to move time by hand) and tells every reader. */
export function tick(at = Date.now()): void {
  now = at;
  for (const listener of [...listeners]) listener();
}

export function subscribeClock(listener: Listener): () => void {
  listeners.add(listener);
  if (timer === undefined) {
    now = Date.now();
    timer = setInterval(() => tick(), CLOCK_STEP_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** How many timers the clock runs now: one while anything reads it, none otherwise. */
export function clockTimers(): number {
  return timer === undefined ? 0 : 1;
}
