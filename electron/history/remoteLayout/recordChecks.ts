import type { RecordedSnapshot } from './recordFormat.js';

// What a history received from elsewhere (a bundle, a remote's snapshot records) must hold
// before any of it is written: each snapshot once, each path once per snapshot, one size per
// blob, and every number within what the history can store. A schema checks each value's shape;
// these check the values against each other and against those limits. Each answers the first
// problem found, in one line that names it, or null.

/**
 * The largest snapshot or version id taken in. SQLite stores ids up to 2^63, but they are read
 * as JavaScript numbers and a new one is the largest plus one: far below 2^53, so that sum is
 * always exact.
 */
export const MAX_ID = 2 ** 31 - 1;
/** The latest time taken in (milliseconds since 1970): the end of the year 9999. */
export const MAX_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** A problem with an id, or null. */
export function idProblem(id: number, what: string): string | null {
  return Number.isSafeInteger(id) && id >= 1 && id <= MAX_ID ? null : `${what} ${id} is beyond the ids a history holds (1 to ${MAX_ID})`;
}

/** A problem with a time, or null. */
export function timeProblem(at: number, what: string): string | null {
  return Number.isSafeInteger(at) && at >= 0 && at <= MAX_TIME ? null : `${what} has the time ${at}, beyond the year 9999`;
}

/** The first value of `values` whose problem is not null. */
export function firstProblem<T>(values: Iterable<T>, problem: (value: T) => string | null): string | null {
  for (const value of values) {
    const found = problem(value);
    if (found !== null) return found;
  }
  return null;
}

/** A blob's size, known where its bytes are (a bundle's blob head, a remote's index), against the one its versions give it. */
export function sizeProblem(sizes: ReadonlyMap<string, number>, hash: string, size: number, what = 'blob'): string | null {
  const named = sizes.get(hash);
  return named === undefined || named === size ? null : `${what} ${hash.slice(0, 12)}… is ${size} bytes, its versions say ${named}`;
}

/**
 * Snapshots as one machine recorded them: ids and times in range, no id twice, no path twice in
 * one snapshot, every version's size a safe integer, and the same contents (hash) always of one
 * size. `sizes` collects each hash's size, for a caller that learns a blob's size elsewhere.
 */
export function snapshotsProblem(snapshots: readonly RecordedSnapshot[], sizes = new Map<string, number>()): string | null {
  const ids = new Set<number>();
  return firstProblem(snapshots, (s) => {
    const problem = idProblem(s.idOnMachine, 'snapshot') ?? timeProblem(s.at, `snapshot ${s.idOnMachine}`);
    if (problem !== null) return problem;
    if (ids.has(s.idOnMachine)) return `snapshot ${s.idOnMachine} is listed twice`;
    ids.add(s.idOnMachine);
    return versionsProblem(s, sizes);
  });
}

function versionsProblem(s: RecordedSnapshot, sizes: Map<string, number>): string | null {
  const paths = new Set<string>();
  return firstProblem(s.versions, (v) => {
    if (paths.has(v.path)) return `snapshot ${s.idOnMachine} lists ${v.path} twice`;
    paths.add(v.path);
    if (!Number.isSafeInteger(v.size)) return `snapshot ${s.idOnMachine} gives ${v.path} the size ${v.size}, beyond what a file holds`;
    if (v.hash === null) return null;
    const size = sizes.get(v.hash);
    if (size === undefined) sizes.set(v.hash, v.size);
    else if (size !== v.size) return `snapshot ${s.idOnMachine} gives ${v.path} ${v.size} bytes, another version of the same contents ${size}`;
    return null;
  });
}
