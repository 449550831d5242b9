import { isHindsightError } from '../../../../shared/errors.js';

// The app's background push: after recorded change groups, each project with a remote is pushed
// once the project has been quiet for `delayMs` (so a burst of groups makes one push), one push at
// a time in the whole process, after local work (it only starts from a timer, and a push of a
// project that records again meanwhile runs again afterwards). Failures are noted by the push
// itself (the Store tab shows them) and tried again after the next change.

export interface AutoPushOptions {
  delayMs: number;
  /** Pushes one project to every remote set; rejects with the push's error. */
  push: (projectId: string) => Promise<void>;
  /** Whether any remote is set now (read at each change, so adding one takes effect at once). */
  hasRemote: () => boolean;
  onError?: (projectId: string, error: unknown) => void;
}

export class AutoPush {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly waiting = new Set<string>();
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly options: AutoPushOptions) {}

  /** A change group (any snapshot) was recorded in this project. */
  recorded(projectId: string): void {
    if (this.stopped || !this.options.hasRemote()) return;
    clearTimeout(this.timers.get(projectId));
    const timer = setTimeout(() => {
      this.timers.delete(projectId);
      this.waiting.add(projectId);
      this.drain();
    }, this.options.delayMs);
    timer.unref();
    this.timers.set(projectId, timer);
  }

  /** Pushes every project waiting for its quiet time now (shutdown, tests). */
  flush(): void {
    for (const [projectId, timer] of this.timers) {
      clearTimeout(timer);
      this.waiting.add(projectId);
    }
    this.timers.clear();
    this.drain();
  }

  /** Resolves when no push is waiting or running (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.waiting.clear();
  }

  private drain(): void {
    if (this.running) return;
    this.running = (async () => {
      while (!this.stopped && this.waiting.size > 0) {
        const projectId = this.waiting.values().next().value as string;
        this.waiting.delete(projectId);
        try {
          await this.options.push(projectId);
        } catch (error) {
          if (!isHindsightError(error) || error.code !== 'CANCELLED') this.options.onError?.(projectId, error);
        }
      }
    })().finally(() => {
      this.running = null;
    });
  }
}
