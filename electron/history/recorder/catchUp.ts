import type { ProjectStore } from '../project/projectStore.js';
import { maxOf } from '../../../shared/largeArrays.js';
import type { RunningBeat } from './runningMark.js';

// What a recorder that starts catches up: the changes made since anything last looked at the
// project (a recorder running, a rescan, a snapshot). A recorder marks the project's history.db
// when it starts watching it (with the run that watches it) and when it stops; while it runs, only
// the data folder's running mark beats (runningMark.ts), so an idle recorder writes into no
// history. A catch-up after a crash takes the beat of the run that watched the project. The marks
// are not history: they are written outside the writer lock.

const RUNNING_KEY = 'recorder.lastRunningAt';
/** The run that watches the project now (runningMark.ts); empty once it stopped watching it. */
const RUN_KEY = 'recorder.run';

/** Marks the project as recorded up to `at` and watched by no run; a database busy past its timeout waits for the stop. */
export function markRunning(store: ProjectStore, at = Date.now()): void {
  try {
    store.index.setMeta(RUNNING_KEY, String(at));
    if (store.index.getMeta(RUN_KEY)) store.index.setMeta(RUN_KEY, '');
  } catch {
    // The stop, or the next start's catch-up, writes it.
  }
}

/** Marks the project as watched by `run` from `at` on: the run's beats say how long it went on. */
export function markWatched(store: ProjectStore, run: string, at = Date.now()): void {
  try {
    store.index.setMeta(RUNNING_KEY, String(at));
    store.index.setMeta(RUN_KEY, run);
  } catch {
    // The span of a later catch-up then starts at the catch-up that preceded this watch.
  }
}

/**
 * The last moment anything recorded or looked at the project, or undefined for a history never
 * seen; `beat` is the last recorder run's mark, counted only when that run watched the project
 * (a project gone or forgotten during the run was marked when it stopped being watched).
 */
export function lastSeenAt(store: ProjectStore, beat?: RunningBeat): number | undefined {
  const latest = store.index.snapshotReads.latestSnapshotId();
  const watchedBy = store.index.getMeta(RUN_KEY);
  const times = [
    beat !== undefined && watchedBy === beat.run ? beat.at : 0,
    Number(store.index.getMeta(RUNNING_KEY) ?? 0),
    Number(store.index.getMeta('lastScanAt') ?? 0),
    latest === undefined ? 0 : (store.index.snapshotReads.snapshot(latest)?.at ?? 0),
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
