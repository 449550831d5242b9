import { statSync, writeFileSync } from 'node:fs';
import { PRIVATE_FILE_MODE } from '../privateModes.js';
import { tempsSweptPath } from './storeLayout.js';

// Sweeping the blob temps reads all 257 blob folders: on a reopen of an unchanged project that was
// most of the store's opening. A temp outlives its write only when its process died; a writer that
// died leaves its writer lock, and the next writer sweeps on taking it over (project/writerLock.ts).
// What is left for this stamp is the rest (a reader fetching a remote's blob, killed midway; a
// machine that lost power): a sweep at least once a day, whichever process writes first.

export const SWEEP_EVERY_MS = 24 * 60 * 60 * 1000;

/** Whether the last whole sweep of this store is older than SWEEP_EVERY_MS (or unknown, or dated ahead of the clock). */
export function sweepDue(storeDir: string, now = Date.now()): boolean {
  const swept = statSync(tempsSweptPath(storeDir), { throwIfNoEntry: false })?.mtimeMs;
  return swept === undefined || swept > now || now - swept >= SWEEP_EVERY_MS;
}

/** Dates the stamp now: called once a whole sweep has finished. */
export function noteSwept(storeDir: string): void {
  writeFileSync(tempsSweptPath(storeDir), '', { mode: PRIVATE_FILE_MODE });
}
