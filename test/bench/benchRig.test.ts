import { describe, expect, it } from 'vitest';
import type { BenchSuite } from './benchSuite.js';
import { compareRounds } from './compare/compareRounds.js';
import { runSuiteOnce, type CaseRow } from './runSuiteOnce.js';
import { comparePaired, median, quantile, tCritical95 } from './stats.js';
import { seededRandom } from './fixtures/seededRandom.js';

// The rig's own arithmetic and runner on a tiny suite: no timing is asserted, only what the
// numbers must be given the inputs.

describe('the paired comparison of bench:compare', () => {
  it('gives no verdict when both sides are the same (A/A)', () => {
    const random = seededRandom(7);
    const base = Array.from({ length: 10 }, () => 100 + random() * 20);
    const head = base.map((v) => v * (0.97 + random() * 0.06));
    const same = comparePaired(base, base);
    expect(same).toMatchObject({ rounds: 10, ratio: 1, verdict: '~' });
    expect(comparePaired(base, head).verdict).toBe('~');
  });

  it('calls a consistent change faster or slower, with the interval around the ratio', () => {
    const base = [100, 120, 90, 110, 105];
    const faster = comparePaired(
      base,
      base.map((v, i) => v * (0.8 + (i % 2) * 0.02)),
    );
    expect(faster.verdict).toBe('faster');
    expect(faster.low).toBeLessThan(faster.ratio);
    expect(faster.high).toBeGreaterThan(faster.ratio);
    expect(faster.high).toBeLessThan(1);
    expect(
      comparePaired(
        base,
        base.map((v) => v * 1.3),
      ).verdict,
    ).toBe('slower');
  });

  it('uses the t distribution: wide intervals for few rounds', () => {
    expect(tCritical95(1)).toBeCloseTo(12.706);
    expect(tCritical95(4)).toBeCloseTo(2.776);
    expect(tCritical95(1000)).toBeCloseTo(1.96);
    // Two rounds that disagree in direction can never give a verdict.
    expect(comparePaired([100, 100], [80, 120]).verdict).toBe('~');
  });

  it('takes medians and quantiles the usual way', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(quantile([0, 10], 0.99)).toBeCloseTo(9.9);
  });
});

describe('the suite runner', () => {
  it('runs each case once per round with its setup and teardown, and reports medians of its figures', async () => {
    const calls: string[] = [];
    let n = 0;
    const suite: BenchSuite = {
      name: 'tiny',
      cases: () => [
        {
          name: 'counts',
          iterations: 3,
          setup: () => void calls.push('setup'),
          run: () => {
            calls.push('run');
            return { parses: [5, 1, 3][n++]! };
          },
          teardown: () => void calls.push('teardown'),
        },
        { name: 'skipped', run: () => void calls.push('other') },
      ],
    };
    const rows = await runSuiteOnce(suite, (name) => name === 'counts');
    expect(calls).toEqual(['setup', 'run', 'run', 'run', 'teardown']);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ suite: 'tiny', case: 'counts', parses: 3 });
    expect(typeof rows[0]!.ms).toBe('number');
  });

  it('pairs base and head rows by case and figure, round by round', () => {
    const round = (ms: number, parses: number): CaseRow[] => [{ suite: 's', case: 'edit', ms, parses }];
    const base = [round(100, 4), round(110, 4), round(95, 4)];
    const head = [round(70, 2), round(80, 2), round(66, 2)];
    const compared = compareRounds(base, head);
    expect(compared.map((c) => `${c.case}.${c.figure}:${c.verdict}`)).toEqual(['edit.ms:faster', 'edit.parses:faster']);
    expect(compared[1]!.ratio).toBeCloseTo(0.5);
    expect(compareRounds(base, base).every((c) => c.verdict === '~')).toBe(true);
  });
});
