// The shape every benchmark suite has, so one runner (and bench:compare, which runs the runner of
// two builds in alternation) can measure any of them. A suite lives in test/bench/suites/ as
// <name>.bench.ts and default-exports a BenchSuite.

export interface BenchCase {
  /** A stable name: bench:compare pairs base and head rows by it. */
  name: string;
  /** Runs once before the case is timed (fixtures, warm caches). */
  setup?: () => Promise<void> | void;
  /** The timed work. Returns nothing, or extra figures (counts, bytes) to print beside the time. */
  run: () => Promise<void | Record<string, number>> | void | Record<string, number>;
  /** How many times run() is called per round (default 1); the row reports the median. */
  iterations?: number;
  teardown?: () => Promise<void> | void;
}

export interface BenchSuite {
  name: string;
  cases: () => Promise<BenchCase[]> | BenchCase[];
}
