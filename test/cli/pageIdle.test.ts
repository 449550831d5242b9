import { describe, expect, it } from 'vitest';
import { pageIdle, type PageIdleTimers } from '../../electron/cli/pageIdle.js';

// The idle stop of a viewer started by `hindsight view`, counted: a countdown is armed only when no
// page is left, once however often that is said, and disarmed by a page connecting.

function counted() {
  const armed: { run: () => void; ms: number; cleared: boolean }[] = [];
  const timers: PageIdleTimers = {
    set: (run, ms) => {
      const timer = { run, ms, cleared: false };
      armed.push(timer);
      return timer;
    },
    clear: (handle) => void ((handle as { cleared: boolean }).cleared = true),
  };
  const said: string[] = [];
  let stops = 0;
  const idle = pageIdle(
    300_000,
    (line) => said.push(line),
    () => stops++,
    timers,
  );
  return { idle, armed, said, stops: () => stops };
}

describe('pageIdle', () => {
  it('arms one countdown when the last page goes, not while one is left', () => {
    const { idle, armed, said, stops } = counted();
    idle.pages(0); // the start: no page yet
    expect(armed).toHaveLength(1);
    expect(said).toEqual(['No viewer page is open: Hindsight stops in 5 minutes unless one opens.']);
    idle.pages(1);
    idle.pages(2);
    expect(armed[0]!.cleared).toBe(true);
    idle.pages(1);
    expect(armed).toHaveLength(1);
    idle.pages(0);
    idle.pages(0);
    expect(armed).toHaveLength(2);
    expect(armed[1]!.ms).toBe(300_000);
    expect(said.at(-1)).toBe('The viewer page was closed: Hindsight stops in 5 minutes unless one opens.');
    armed[1]!.run();
    expect(stops()).toBe(1);
    expect(said.at(-1)).toBe('No viewer page for 5 minutes: Hindsight stopped.');
  });

  it('is disarmed by clear for good: the pages a stopping host closes arm nothing', () => {
    const { idle, armed } = counted();
    idle.pages(0);
    idle.pages(1);
    idle.clear();
    idle.pages(0);
    expect(armed).toHaveLength(1);
    expect(armed[0]!.cleared).toBe(true);
  });
});
