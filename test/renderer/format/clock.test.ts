import { describe, expect, it } from 'vitest';
import { clockNow, clockTimers, subscribeClock, tick } from '../../../renderer/format/clock.js';
import { formatRelative } from '../../../renderer/format/time.js';

// One clock for every relative time on screen: one timer however many read it, none when nobody
// does, and each tick tells every reader, so "22 seconds ago" keeps counting instead of freezing.
// Time is moved by hand (tick), so nothing here waits for a real second.

describe('the shared clock', () => {
  it('runs one timer for all readers, tells each of them every tick, and stops with the last', () => {
    const told = [0, 0, 0];
    const stops = told.map((_, i) => subscribeClock(() => told[i]!++));
    expect(clockTimers()).toBe(1);
    const at = Date.UTC(2026, 0, 10, 12);
    tick(at);
    tick(at + 22_000);
    expect(told).toEqual([2, 2, 2]);
    expect(formatRelative(at, clockNow())).toBe('22 seconds ago');
    tick(at + 60_000);
    expect(formatRelative(at, clockNow())).toBe('1 minute ago');
    stops[0]!();
    stops[1]!();
    expect(clockTimers()).toBe(1);
    stops[2]!();
    expect(clockTimers()).toBe(0);
  });
});
