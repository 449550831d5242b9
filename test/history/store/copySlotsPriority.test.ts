import { describe, expect, it } from 'vitest';
import { CopySlots } from '../../../electron/history/store/copySlots.js';

describe('CopySlots priorities', () => {
  it('serves a lower priority first, and first come first served within one priority', async () => {
    const slots = new CopySlots(1);
    await slots.acquire();
    const order: string[] = [];
    const waiting = [
      slots.acquire(2).then(() => order.push('b1')),
      slots.acquire(1).then(() => order.push('a1')),
      slots.acquire(2).then(() => order.push('b2')),
      slots.acquire(0).then(() => order.push('change')),
      slots.acquire(1).then(() => order.push('a2')),
    ];
    for (let i = 0; i < waiting.length; i++) {
      slots.release();
      await new Promise((resolve) => setImmediate(resolve));
      expect(slots.busy).toBe(1);
    }
    await Promise.all(waiting);
    expect(order).toEqual(['change', 'a1', 'a2', 'b1', 'b2']);
    slots.release();
    expect(slots.busy).toBe(0);
  });
});
