import { availableParallelism } from 'node:os';

// Copy workers' batches held at once in the process (CopySlots), by default: a setting's default
// (config/configSchema.ts) as much as the pool's, so it lives apart from the pool and its threads.
//
// One batch per core this process may use, less one for the history process's main thread (it
// takes the walk's entries, sends the batches and commits), and never under 2: on two cores the
// walk occupies one worker while the other copies, as the fixed 4 did (the workers are capped at
// the cores, so 4 slots there bought nothing but batches waiting for a worker). The config's
// copyConcurrency still overrides it.

export function defaultCopyConcurrency(cores: number = availableParallelism()): number {
  return Math.min(COPY_CONCURRENCY_MAX, Math.max(2, cores - 1));
}

/** The config setting's upper bound. */
export const COPY_CONCURRENCY_MAX = 64;

export const DEFAULT_COPY_CONCURRENCY = defaultCopyConcurrency();
