// Process-wide counters for HINDSIGHT_TRACE: cheap integers that tests and benchmarks read to prove
// how much work a mechanism did (files copied, lstat calls, parses), never timings.

const counters = new Map<string, number>();

export function count(name: string, by = 1): void {
  counters.set(name, (counters.get(name) ?? 0) + by);
}

/** Keeps the largest value seen, for gauges such as files in flight. */
export function countMax(name: string, value: number): void {
  if (value > (counters.get(name) ?? 0)) counters.set(name, value);
}

export function counter(name: string): number {
  return counters.get(name) ?? 0;
}

export function traceSnapshot(): Record<string, number> {
  return Object.fromEntries([...counters.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
}

export function resetTrace(): void {
  counters.clear();
}
