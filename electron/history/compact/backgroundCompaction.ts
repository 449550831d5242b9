import type { ProjectWrites } from '../project/projectWrites.js';
import { compactProject } from './compactProject.js';
import { COMPRESS_RANGE } from './compactStore.js';

// The app's (and the browser host's, and `watch`'s) own compaction of a project it records: when
// the store has raw blobs where compression pays, they are converted in the background, on the
// compaction thread at the lowest priority, one short writer batch at a time, and never while
// the project has a write queued or running or files are copying in the process. It stops when
// the store closes (a batch being looked at is dropped whole) and the next open goes on. Behind
// the setting compactInBackground (on by default).

export interface BackgroundCompactionOptions {
  /** Something to wait for before the next batch (a write or a copy running), or undefined. */
  busy: () => Promise<unknown> | undefined;
}

export class BackgroundCompaction {
  private running: Promise<void> | undefined;
  private readonly stopping = new AbortController();
  /** The last run's failure, if it failed (the next open tries again). */
  failure: unknown;
  /** Blobs converted since this compaction started (what tests count). */
  converted = 0;

  constructor(
    private readonly project: ProjectWrites,
    private readonly options: BackgroundCompactionOptions,
  ) {}

  /** Starts a run when there is anything to convert and none runs. */
  start(): void {
    if (this.running || this.stopping.signal.aborted) return;
    if (this.project.store.index.compaction.compactTotals(COMPRESS_RANGE).blobs === 0) return;
    this.running = compactProject(this.project, { signal: this.stopping.signal, busy: this.options.busy })
      .then((result) => void (this.converted += result.converted))
      .catch((error: unknown) => {
        if (!this.stopping.signal.aborted) this.failure = error;
      })
      .finally(() => (this.running = undefined));
  }

  /** Resolves when the run in progress (if any) has ended. */
  async settled(): Promise<void> {
    await this.running;
  }

  /** Stops after the batch in progress; what was converted stays. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.running;
  }
}
