import type { CopySlots } from '../store/copySlots.js';

// The app prunes by itself: once after a project's first copy completes, then about hourly, each
// time only when nothing copies (no copy slot in use) and holding one slot at the lowest priority,
// so a first copy, a restore or a change group asking for slots is served first. A prune holds no
// writer lock and its transactions are short: a change recorded meanwhile is never held up by it.
// The CLI's one-shot commands never start it (`hindsight prune` is the explicit way).

export interface AutoPruneOptions {
  /** Milliseconds between prunes of one project (default: an hour). */
  everyMs?: number;
  /** Milliseconds between looks at whether the copy slots are idle (default: 5 s). */
  idleCheckMs?: number;
  /** Told when an automatic prune fails (the engine reports it as an error event). */
  onError?: (projectId: string, error: unknown) => void;
}

/** The lowest priority a slot can be asked with: behind every copy. */
export const PRUNE_PRIORITY = Number.MAX_SAFE_INTEGER;

export class AutoPrune {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly everyMs: number;
  private readonly idleCheckMs: number;
  /** Prunes started (tests count them). */
  runs = 0;

  constructor(
    private readonly slots: () => CopySlots,
    private readonly prune: (projectId: string) => Promise<unknown>,
    private readonly options: AutoPruneOptions = {},
  ) {
    this.everyMs = options.everyMs ?? 3_600_000;
    this.idleCheckMs = options.idleCheckMs ?? 5_000;
  }

  /** Prunes a project soon (after its first copy), then every `everyMs`; a second call changes nothing. */
  start(projectId: string, firstIn = 0): void {
    if (this.timers.has(projectId)) return;
    this.arm(projectId, firstIn);
  }

  stop(projectId: string): void {
    clearTimeout(this.timers.get(projectId));
    this.timers.delete(projectId);
  }

  stopAll(): void {
    for (const id of [...this.timers.keys()]) this.stop(id);
  }

  private arm(projectId: string, delay: number): void {
    const timer = setTimeout(() => void this.whenIdle(projectId), delay);
    timer.unref();
    this.timers.set(projectId, timer);
  }

  private async whenIdle(projectId: string): Promise<void> {
    if (!this.timers.has(projectId)) return;
    const slots = this.slots();
    if (slots.busy > 0) return this.arm(projectId, this.idleCheckMs);
    try {
      this.runs++;
      await slots.run(() => this.prune(projectId), PRUNE_PRIORITY);
    } catch (error) {
      this.options.onError?.(projectId, error);
    }
    if (this.timers.has(projectId)) this.arm(projectId, this.everyMs);
  }
}
