// The few statistics the rig reports: medians and ranges of repeated runs, percentiles of latency
// samples, and the paired comparison of bench:compare (per-round log ratio head/base, mean with a
// 95% confidence interval from the t distribution). A verdict is given only when the whole
// interval lies on one side of zero: an A/A run (the same build on both sides) must show none.

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** Linear-interpolated quantile (q in [0, 1]); NaN for no values. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
}

export function minMax(values: readonly number[]): { min: number; max: number } {
  return { min: Math.min(...values), max: Math.max(...values) };
}

// Two-sided 95% critical values of Student's t for 1..30 degrees of freedom.
const T95 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069,
  2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

export function tCritical95(df: number): number {
  if (df < 1) return NaN;
  if (df <= 30) return T95[df - 1]!;
  if (df <= 60) return 2.0;
  if (df <= 120) return 1.98;
  return 1.96;
}

export type Verdict = 'faster' | 'slower' | '~';

export interface PairedComparison {
  rounds: number;
  /** exp(mean log ratio): head / base, below 1 is faster (for times). */
  ratio: number;
  low: number;
  high: number;
  verdict: Verdict;
}

/**
 * Paired comparison of head against base over rounds (base[i] and head[i] ran in the same round).
 * `lowerIsBetter` is true for times; pairs with a non-positive value are left out.
 */
export function comparePaired(base: readonly number[], head: readonly number[], lowerIsBetter = true): PairedComparison {
  const logs: number[] = [];
  for (let i = 0; i < Math.min(base.length, head.length); i++) {
    if (base[i]! > 0 && head[i]! > 0) logs.push(Math.log(head[i]! / base[i]!));
  }
  const n = logs.length;
  if (n < 2) return { rounds: n, ratio: n === 1 ? Math.exp(logs[0]!) : NaN, low: NaN, high: NaN, verdict: '~' };
  const mean = logs.reduce((a, b) => a + b, 0) / n;
  const variance = logs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1);
  const half = tCritical95(n - 1) * Math.sqrt(variance / n);
  const low = mean - half;
  const high = mean + half;
  let verdict: Verdict = '~';
  if (high < 0) verdict = lowerIsBetter ? 'faster' : 'slower';
  else if (low > 0) verdict = lowerIsBetter ? 'slower' : 'faster';
  return { rounds: n, ratio: Math.exp(mean), low: Math.exp(low), high: Math.exp(high), verdict };
}

/** A ratio as a signed percentage change, e.g. 0.8 -> "-20.0%". */
export function percent(ratio: number): string {
  if (!Number.isFinite(ratio)) return 'n/a';
  const p = (ratio - 1) * 100;
  return `${p >= 0 ? '+' : ''}${p.toFixed(1)}%`;
}
