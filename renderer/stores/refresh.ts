import { EVERYTHING, mergeStale, type Stale } from './staleView.js';

// The one refresh path of the viewer, driven by the engine's events. A snapshot recorded for the
// shown project marks the view stale with what it changed (staleView.ts), and the refresh reloads
// what the view shows of that, once (the view says what: stores/liveEvents.ts). A write this
// window started (a restore, its undo, a checkpoint) holds the refresh until it has answered: the
// engine announces every snapshot the write records (the capture, the restore) before the answer,
// so one write makes one refresh, after it. Changes from elsewhere (the watcher, another window)
// are gathered for a moment, then refreshed.

const GATHER_MS = 150;

let refresher: ((stale: Stale) => Promise<void>) | null = null;
let holds = 0;
let stale: Stale | null = null;
let timer: ReturnType<typeof setTimeout> | null = null;
let running: Promise<void> | null = null;
const idleWaiters: (() => void)[] = [];

/** What a refresh does with what changed since the last one; set once the view exists (startLiveEvents). */
export function setRefresher(run: ((stale: Stale) => Promise<void>) | null): void {
  refresher = run;
}

/** Something the view shows has changed on the engine's side (by default: anything may have). */
export function requestRefresh(change: Stale = EVERYTHING): void {
  stale = stale ? mergeStale(stale, change) : change;
  if (holds === 0) schedule(GATHER_MS);
}

/** Runs a write of this window; the events it causes refresh the view once, when it has answered. */
export async function holdRefresh<T>(write: () => Promise<T>): Promise<T> {
  holds++;
  try {
    return await write();
  } finally {
    holds--;
    if (holds === 0 && stale) schedule(0);
  }
}

/** Resolves once no refresh is waiting or running. */
export function refreshSettled(): Promise<void> {
  if (!stale && !running && !timer) return Promise.resolve();
  return new Promise((resolve) => idleWaiters.push(resolve));
}

function schedule(delay: number): void {
  if (running) return; // it runs again when the current one ends
  if (timer) {
    if (delay > 0) return;
    clearTimeout(timer);
  }
  timer = setTimeout(() => {
    timer = null;
    void run();
  }, delay);
}

async function run(): Promise<void> {
  if (holds > 0 || !stale) return settle();
  const changed = stale;
  stale = null;
  running = (refresher?.(changed) ?? Promise.resolve()).catch(() => undefined);
  await running;
  running = null;
  if (stale && holds === 0) schedule(0);
  else settle();
}

function settle(): void {
  if (stale || running || timer) return;
  for (const resolve of idleWaiters.splice(0)) resolve();
}
