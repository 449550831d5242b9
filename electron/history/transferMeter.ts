import type { Progress, ProgressPhase } from '../../shared/progress.js';
import { throttleProgress, type ProgressSink } from './progressThrottle.js';
import type { HindsightError } from '../../shared/errors.js';

// Progress of a transfer with an object store, in bytes and objects, with an ETA from the rate
// seen so far (bytes when there are any, else objects). Reports are throttled; phase changes and
// the end are always reported.

/** A request to the object store about to be tried again (remote/retry.ts), as progress tells it. */
export interface RetryNotice {
  doing: string;
  attempt: number;
  attempts: number;
  waitMs: number;
  error: HindsightError;
}

export class TransferMeter {
  private phase: ProgressPhase = 'metadata';
  private bytesDone = 0;
  private bytesTotal = 0;
  private objectsDone = 0;
  private objectsTotal = 0;
  private filesDone = 0;
  private filesTotal = 0;
  private started: number | undefined;
  private note: string | undefined;
  private readonly out: ReturnType<typeof throttleProgress>;

  constructor(
    private readonly operation: Progress['operation'],
    private readonly projectId: string,
    sink: ProgressSink | undefined,
  ) {
    this.out = throttleProgress(sink, 200);
  }

  enter(phase: ProgressPhase, totals: { bytes?: number; objects?: number; files?: number } = {}): void {
    this.phase = phase;
    this.bytesDone = this.objectsDone = this.filesDone = 0;
    this.bytesTotal = totals.bytes ?? 0;
    this.objectsTotal = totals.objects ?? 0;
    this.filesTotal = totals.files ?? 0;
    this.started = undefined;
    this.out.finish(this.current());
  }

  /** More work found while the phase runs (e.g. objects of a head read just now). */
  grow(totals: { bytes?: number; objects?: number; files?: number }): void {
    this.bytesTotal += totals.bytes ?? 0;
    this.objectsTotal += totals.objects ?? 0;
    this.filesTotal += totals.files ?? 0;
  }

  add(done: { bytes?: number; objects?: number; files?: number }): void {
    this.started ??= performance.now();
    this.bytesDone += done.bytes ?? 0;
    this.objectsDone += done.objects ?? 0;
    this.filesDone += done.files ?? 0;
    this.note = undefined;
    this.out.update(this.current());
  }

  retrying(notice: RetryNotice): void {
    this.note = `${notice.error.message} Trying again in ${(notice.waitMs / 1000).toFixed(1)} s (${notice.attempt + 1} of ${notice.attempts}).`;
    this.out.finish(this.current());
  }

  finish(): void {
    this.phase = 'done';
    this.out.finish({ ...this.current(), etaMs: 0 });
  }

  current(): Progress {
    const progress: Progress = {
      operation: this.operation,
      projectId: this.projectId,
      phase: this.phase,
      filesDone: this.filesDone,
      filesTotal: this.filesTotal,
      bytesDone: this.bytesDone,
      bytesTotal: this.bytesTotal,
      objectsDone: this.objectsDone,
      objectsTotal: this.objectsTotal,
      etaMs: this.eta(),
    };
    if (this.note) progress.note = this.note;
    return progress;
  }

  private eta(): number | null {
    if (this.started === undefined) return null;
    const elapsed = performance.now() - this.started;
    const [done, total] = this.bytesTotal > 0 ? [this.bytesDone, this.bytesTotal] : [this.objectsDone, this.objectsTotal];
    if (done <= 0 || elapsed <= 0) return null;
    return Math.max(0, Math.round(((total - done) * elapsed) / done));
  }
}
