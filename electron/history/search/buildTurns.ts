// The search index builds of a process take turns: one build (one worker thread, one SQLite
// connection of its own) at a time, whatever number of projects are open. Ten projects opened at
// once by the recorder of every known project would otherwise build ten indexes side by side, each
// thread with its own heap and page cache, for the whole time they take. A builder that is stopped
// while it waits leaves the queue at once.

export type ReleaseTurn = () => void;

export class BuildTurns {
  private busy = false;
  private readonly waiting: (() => void)[] = [];

  /** Resolves with the function that ends this turn once it is the caller's, or with null as soon as `cancelled` aborts. */
  take(cancelled: AbortSignal): Promise<ReleaseTurn | null> {
    if (cancelled.aborted) return Promise.resolve(null);
    return new Promise((resolve) => {
      const grant = () => {
        cancelled.removeEventListener('abort', leave);
        this.busy = true;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.next();
        });
      };
      const leave = () => {
        const at = this.waiting.indexOf(grant);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve(null);
      };
      if (!this.busy) return grant();
      this.waiting.push(grant);
      cancelled.addEventListener('abort', leave, { once: true });
    });
  }

  /** Builders waiting for their turn (what tests count). */
  get queued(): number {
    return this.waiting.length;
  }

  private next(): void {
    this.busy = false;
    this.waiting.shift()?.();
  }
}

/** The process's one queue of index builds. */
export const searchBuildTurns = new BuildTurns();
