import { countMax } from '../trace.js';

// The files a filing was given and has not had answered yet (planned, queued for a slot, or
// copying), and who waits for them to drop below a count: a first copy's walk is held back on it
// (copy/firstCopy.ts WALK_BACKLOG_FILES). Trace counter `copy.filesWaiting`: the most at once.

export class FilingBacklog {
  private files = 0;
  private readonly waiters: { below: number; resolve: () => void }[] = [];

  get count(): number {
    return this.files;
  }

  added(files: number): void {
    this.files += files;
    countMax('copy.filesWaiting', this.files);
  }

  answered(files: number): void {
    this.files -= files;
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const waiter = this.waiters[i]!;
      if (this.files >= waiter.below) continue;
      this.waiters.splice(i, 1);
      waiter.resolve();
    }
  }

  /** Settles once fewer than `files` wait; undefined when that is so already. */
  below(files: number): Promise<void> | undefined {
    if (this.files < files) return undefined;
    return new Promise<void>((resolve) => this.waiters.push({ below: files, resolve }));
  }
}
