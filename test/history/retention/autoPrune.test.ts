import { describe, expect, it } from 'vitest';
import { AutoPrune, PRUNE_PRIORITY } from '../../../electron/history/retention/autoPrune.js';
import { CopySlots } from '../../../electron/history/store/copySlots.js';

// The app's own prunes wait for the copy slots to be idle and then ask for one at the lowest
// priority: a copy asking meanwhile is served first. Counted, never timed.

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('automatic prunes', () => {
  it('wait while anything copies, run once the slots are idle, and come again', async () => {
    const slots = new CopySlots(2);
    const pruned: string[] = [];
    const ran = [deferred(), deferred()];
    const auto = new AutoPrune(
      () => slots,
      async (projectId) => {
        pruned.push(projectId);
        ran[pruned.length - 1]?.resolve();
      },
      { everyMs: 1, idleCheckMs: 1 },
    );
    // A first copy holds a slot: the prune looks, and looks again, without starting.
    await slots.acquire();
    auto.start('p1');
    auto.start('p1'); // a second start changes nothing
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(pruned).toEqual([]);
    slots.release();
    await ran[0]!.promise;
    await ran[1]!.promise;
    auto.stop('p1');
    expect(pruned).toEqual(['p1', 'p1']);
    expect(auto.runs).toBe(2);
  });

  it('asks for its slot behind every copy already waiting', async () => {
    const slots = new CopySlots(1);
    const order: string[] = [];
    await slots.acquire();
    const prune = slots.run(async () => void order.push('prune'), PRUNE_PRIORITY);
    const copy = slots.run(async () => void order.push('copy'), 0);
    slots.release();
    await Promise.all([prune, copy]);
    expect(order).toEqual(['copy', 'prune']);
  });
});
