// The process-wide limit on files copying at once, shared by every project opening in the
// process, so several first opens together still leave the disk and the event loop room for other
// work. A freed slot goes straight to the next waiter: it is never released to the pool and
// re-acquired, so the count never exceeds the limit nor leaks.
//
// Waiters are served by priority (lower first), first come first served within one priority. First
// copies ask with the order their project started in, so when eleven projects open at once the
// first one finishes first instead of all eleven finishing together at the end.

export class CopySlots {
  private inUse = 0;
  private readonly waiters: { priority: number; wake: () => void }[] = [];

  constructor(private limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('The copy limit must be a whole number of at least 1.');
  }

  get capacity(): number {
    return this.limit;
  }

  get busy(): number {
    return this.inUse;
  }

  /** Changes the limit for slots handed out from now on; slots in use finish as they are. */
  setLimit(limit: number): void {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('The copy limit must be a whole number of at least 1.');
    this.limit = limit;
    while (this.inUse < this.limit && this.waiters.length > 0) {
      this.inUse++;
      this.waiters.shift()?.wake();
    }
  }

  acquire(priority = 0): Promise<void> {
    if (this.inUse < this.limit) {
      this.inUse++;
      return Promise.resolve();
    }
    return new Promise((wake) => {
      // After the last waiter of the same or a more urgent priority: FIFO within a priority.
      let at = this.waiters.length;
      while (at > 0 && this.waiters[at - 1]!.priority > priority) at--;
      this.waiters.splice(at, 0, { priority, wake });
    });
  }

  release(): void {
    const next = this.waiters.shift();
    if (next && this.inUse <= this.limit) next.wake();
    else if (next) {
      // The limit was lowered: this slot retires, the waiter keeps waiting.
      this.waiters.unshift(next);
      this.inUse--;
    } else this.inUse--;
  }

  async run<T>(work: () => Promise<T>, priority = 0): Promise<T> {
    await this.acquire(priority);
    try {
      return await work();
    } finally {
      this.release();
    }
  }
}
