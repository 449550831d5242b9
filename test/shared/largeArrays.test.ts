import { describe, expect, it } from 'vitest';
import { appendAll, maxOf, minOf } from '../../shared/largeArrays.js';

// The loops that take the place of a spread into a call: any length, the same answers.

const LONG = 300_000;

describe('largeArrays', () => {
  it('appends and measures arrays longer than a call can carry as arguments', () => {
    const items = Array.from({ length: LONG }, (_, i) => i);
    expect(() => [].push(...(items as never[]))).toThrow(RangeError);
    const target = [-1];
    expect(appendAll(target, items)).toBe(target);
    expect(target).toHaveLength(LONG + 1);
    expect([target[0], target[1], target.at(-1)]).toEqual([-1, 0, LONG - 1]);
    expect(maxOf(items)).toBe(LONG - 1);
    expect(minOf(items, 5)).toBe(0);
  });

  it('answers as Math.max and Math.min do, start included', () => {
    for (const values of [[], [3], [1, 7, 2], [-5, -1], [2, NaN, 9]]) {
      expect(maxOf(values)).toBe(Math.max(...values));
      expect(minOf(values)).toBe(Math.min(...values));
      expect(maxOf(values, 4)).toBe(Math.max(4, ...values));
      expect(minOf(values, 4)).toBe(Math.min(4, ...values));
    }
  });
});
