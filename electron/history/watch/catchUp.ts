import type { ProjectStore } from '../project/projectStore.js';
import { maxOf } from '../../../shared/largeArrays.js';

// What a recorder that starts catches up: the changes made since anything last looked at the
// project (a recorder running, a rescan, a snapshot). A recorder marks the project's history.db
// while it runs (when it starts, on a slow beat, when it stops), so the catch-up snapshot can say
// which span it covers. The mark is not history: it is written outside the writer lock.

const RUNNING_KEY = 'recorder.lastRunningAt';

/** Marks the project as recorded up to `at`; a database busy past its timeout waits for the next beat. */
export function markRunning(store: ProjectStore, at = Date.now()): void {
  try {
    store.index.setMeta(RUNNING_KEY, String(at));
  } catch {
    // The next beat, or the stop, writes it.
  }
}

/** The last moment anything recorded or looked at the project, or undefined for a history never seen. */
export function lastSeenAt(store: ProjectStore): number | undefined {
  const latest = store.index.latestSnapshotId();
  const times = [
    Number(store.index.getMeta(RUNNING_KEY) ?? 0),
    Number(store.index.getMeta('lastScanAt') ?? 0),
    latest === undefined ? 0 : (store.index.snapshot(latest)?.at ?? 0),
  ];
  const last = maxOf(times);
  return last > 0 ? last : undefined;
}

/** Why nothing recorded before a catch-up: no recorder ran, or the user paused recording. */
export type CatchUpAfter = 'not-running' | 'paused';

const WHILE: Record<CatchUpAfter, string> = {
  'not-running': 'while Hindsight was not running',
  paused: 'while recording was paused',
};

/** The title of a catch-up snapshot: why nothing recorded, and the span it covers, in local time (one minute said once). */
export function catchUpLabel(since: number | undefined, until: number, after: CatchUpAfter = 'not-running'): string {
  if (since !== undefined && localMinute(since) === localMinute(until)) return `Changed ${WHILE[after]} at ${localMinute(until)}`;
  const from = since === undefined ? '' : ` from ${localMinute(since)}`;
  return `Changed ${WHILE[after]}${from} to ${localMinute(until)}`;
}

/**
 * The catch-up's title, given only when what it found changed after the project's last sign of
 * life: a file changed while a recorder ran (one it could not see then) is no change made while
 * nothing recorded. A deletion (no time known) counts as made while nothing recorded.
 */
export function catchUpTitle(since: number | undefined, until: number, after?: CatchUpAfter): (lastChangeAt: number | undefined) => string | null {
  return (lastChangeAt) =>
    since !== undefined && lastChangeAt !== undefined && lastChangeAt < since - CLOCK_SLACK_MS ? null : catchUpLabel(since, until, after);
}

/** A file's ctime lags the clock by up to a tick of the kernel's coarse clock: a change this close to the last sign of life may have come after it. */
const CLOCK_SLACK_MS = 2000;

function localMinute(at: number): string {
  const d = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}
