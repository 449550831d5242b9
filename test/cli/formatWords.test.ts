import { describe, expect, it } from 'vitest';
import { formatNumber } from '../../electron/cli/format/words.js';

// Whole numbers are grouped by hand (no Intl on a cold start); every other number goes to Intl.
// Both must read exactly as Intl's en-US grouping does.
describe('formatNumber', () => {
  const intl = new Intl.NumberFormat('en-US');
  const samples = [0, 1, 7, 12, 999, 1000, 1001, 4846, 12_345, 100_000, 999_999, 1_000_000, 1_234_567_890, Number.MAX_SAFE_INTEGER];

  it('groups whole numbers like Intl en-US', () => {
    for (const n of [...samples, ...samples.map((s) => -s)]) expect(formatNumber(n), String(n)).toBe(intl.format(n));
  });

  it('leaves fractions, -0, huge and non-finite numbers to Intl', () => {
    for (const n of [1.5, -1234.25, -0, 2 ** 60, Infinity, Number.NaN]) expect(formatNumber(n), String(n)).toBe(intl.format(n));
  });
});
