import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The refresh path's rules, with time under the test's control: a write of this window holds the
// refresh however long it takes, and the events it caused make one refresh when it answers;
// events from elsewhere are gathered into one refresh; one that arrives while a refresh runs
// makes exactly one more; the refresh is told what all the events it gathered said changed.

type Refresh = typeof import('../../../renderer/stores/refresh.js');
type Stale = import('../../../renderer/stores/staleView.js').Stale;

let refresh: Refresh;
let runs = 0;
let finishRun: (() => void) | null = null;
let told: Stale[] = [];

beforeEach(async () => {
  vi.useFakeTimers();
  vi.resetModules();
  refresh = await import('../../../renderer/stores/refresh.js');
  runs = 0;
  told = [];
  refresh.setRefresher((stale) => {
    told.push(stale);
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

  it('hands the one refresh what every event it gathered said changed', async () => {
    const write = refresh.holdRefresh(async () => {
      refresh.requestRefresh({ paths: new Set(['notes.md']), removed: false, pinned: false }); // the capture
      refresh.requestRefresh({ paths: new Set(['old.txt']), removed: true, pinned: false }); // the restore
    });
    await write;
    await vi.advanceTimersByTimeAsync(0);
    expect(told).toEqual([{ paths: new Set(['notes.md', 'old.txt']), removed: true, pinned: false }]);
    finishRun!();
    await refresh.refreshSettled();

    // An event that told nothing: anything may have changed.
    refresh.requestRefresh({ paths: new Set(['a.txt']), removed: false, pinned: false });
    refresh.requestRefresh();
    await vi.advanceTimersByTimeAsync(1000);
    expect(told[1]).toEqual({ paths: null, removed: true, pinned: true });
    finishRun!();
    await refresh.refreshSettled();
  });
});
