import { describe, expect, it } from 'vitest';
import { until } from '../helpers/until.js';

// The tests' one polling wait: it fails naming what it waited for instead of running into the
// runner's bare timeout.

describe('until', () => {
  it('resolves once the condition holds, looking again until then', async () => {
    let looks = 0;
    await until(() => ++looks === 3, { everyMs: 0 });
    expect(looks).toBe(3);
  });

  it('past its deadline fails naming the condition, by its source text or by what it was told', async () => {
    const groups: number[] = [];
    await expect(until(() => groups.length === 2, { deadlineMs: 30, everyMs: 5 })).rejects.toThrow('waited 0.03 s for: groups.length === 2');
    await expect(until(async () => false, { what: 'the recorder to start', deadlineMs: 30 })).rejects.toThrow('waited 0.03 s for: the recorder to start');
  });
});
