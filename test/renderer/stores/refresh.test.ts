import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The refresh path's rules, with time under the test's control: a write of this window holds the
// refresh however long it takes, and the events it caused make one refresh when it answers;
// events from elsewhere are gathered into one refresh; one that arrives while a refresh runs
// makes exactly one more.

type Refresh = typeof import('../../../renderer/stores/refresh.js');

let refresh: Refresh;
let runs = 0;
let finishRun: (() => void) | null = null;

beforeEach(async () => {
  vi.useFakeTimers();
  vi.resetModules();
  refresh = await import('../../../renderer/stores/refresh.js');
  runs = 0;
  refresh.setRefresher(() => {
    runs++;
    return new Promise<void>((resolve) => (finishRun = resolve));
  });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the refresh path', () => {
  it('holds the refresh for a write in flight, however long, and refreshes once when it answers', async () => {
    let answer!: () => void;
    const write = refresh.holdRefresh(() => new Promise<void>((resolve) => (answer = resolve)));
    refresh.requestRefresh(); // the capture snapshot
    await vi.advanceTimersByTimeAsync(10_000); // a long restore
    refresh.requestRefresh(); // the restore snapshot
    expect(runs).toBe(0);
    answer();
    await write;
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);
    finishRun!();
    await refresh.refreshSettled();
    expect(runs).toBe(1);
  });

  it('gathers a burst of events from elsewhere into one refresh, and runs once more for one that comes during it', async () => {
    for (let i = 0; i < 5; i++) refresh.requestRefresh();
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(1);
    refresh.requestRefresh();
    refresh.requestRefresh();
    finishRun!();
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(2);
    finishRun!();
    await refresh.refreshSettled();
    expect(runs).toBe(2);
  });
});
