import { describe, expect, it } from 'vitest';
import { CopySlots } from '../../../electron/history/store/copySlots.js';

describe('CopySlots', () => {
  it('hands a freed slot straight to the next waiter, first come first served', async () => {
    const slots = new CopySlots(2);
    await slots.acquire();
    await slots.acquire();
    const order: string[] = [];
    const a = slots.acquire().then(() => order.push('a'));
    const b = slots.acquire().then(() => order.push('b'));
    expect(slots.busy).toBe(2);
    slots.release();
    await a;
    expect(order).toEqual(['a']);
    expect(slots.busy).toBe(2);
    slots.release();
    await b;
    expect(order).toEqual(['a', 'b']);
    slots.release();
    slots.release();
    expect(slots.busy).toBe(0);
  });

  it('never runs more than the limit at once, and never leaks a slot', async () => {
    const slots = new CopySlots(3);
    let running = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        slots.run(async () => {
          running++;
          most = Math.max(most, running);
          await new Promise((resolve) => setTimeout(resolve, i % 3));
          running--;
        }),
      ),
    );
    expect(most).toBe(3);
    expect(slots.busy).toBe(0);
  });

  it('refuses a limit below one', () => {
    expect(() => new CopySlots(0)).toThrow(RangeError);
  });
});
