import { comparePaired, median, type PairedComparison } from '../stats.js';
import type { CaseRow } from '../runSuiteOnce.js';

// Pairs base and head rows round by round and compares every figure of every case: time (ms)
// and the extra figures a case returned. All of them are lower-is-better (times, latencies,
// memory, counts).

export interface ComparedFigure extends PairedComparison {
  case: string;
  figure: string;
  baseMedian: number;
  headMedian: number;
}

export function compareRounds(baseRounds: readonly CaseRow[][], headRounds: readonly CaseRow[][]): ComparedFigure[] {
  const keys: { case: string; figure: string }[] = [];
  for (const row of baseRounds[0] ?? []) {
    for (const [figure, value] of Object.entries(row)) {
      if (typeof value === 'number') keys.push({ case: row.case, figure });
    }
  }
  const pick = (rounds: readonly CaseRow[][], key: { case: string; figure: string }) =>
    rounds.map((round) => {
      const value = round.find((r) => r.case === key.case)?.[key.figure];
      return typeof value === 'number' ? value : NaN;
    });
  return keys.map((key) => {
    const base = pick(baseRounds, key);
    const head = pick(headRounds, key);
    return { ...key, ...comparePaired(base, head), baseMedian: median(base.filter(Number.isFinite)), headMedian: median(head.filter(Number.isFinite)) };
  });
}

export function renderComparison(rows: readonly ComparedFigure[], header: string): string {
  const fmt = (v: number) => (Number.isFinite(v) ? (Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2)) : 'n/a');
  const pct = (r: number) => (Number.isFinite(r) ? `${r >= 1 ? '+' : ''}${((r - 1) * 100).toFixed(1)}%` : 'n/a');
  const lines = [header, '', '| case | figure | base median | head median | head/base | 95% CI | verdict |', '| --- | --- | ---: | ---: | ---: | --- | --- |'];
  for (const r of rows) {
    lines.push(`| ${r.case} | ${r.figure} | ${fmt(r.baseMedian)} | ${fmt(r.headMedian)} | ${pct(r.ratio)} | ${pct(r.low)} to ${pct(r.high)} | ${r.verdict} |`);
  }
  const faster = rows.filter((r) => r.verdict === 'faster').length;
  const slower = rows.filter((r) => r.verdict === 'slower').length;
  lines.push('', `${faster} faster, ${slower} slower, ${rows.length - faster - slower} ~ (no verdict) of ${rows.length} rows.`);
  return lines.join('\n');
}
