import { close as closeAsync, closeSync } from 'node:fs';
import { HindsightError } from '../../../shared/errors.js';
import { count } from '../trace.js';

// Closing files that were just written is slow on some systems (Windows: a close costs
// milliseconds, against microseconds for the write), so a bulk write hands its closes to this
// closer and goes on writing (Mercurial's backgroundfilecloser, seed 001). At most 4 closes are in
// flight and at most 384 wait; a writer that finds the queue full waits for room. A close that
// fails is kept and reported when the batch finishes, and what was to follow it (the rename into
// place) never happens: nothing counts as written unless its close succeeded.
//
// Off, the same interface closes inline, one at a time. It is on by default on Windows only,
// and HINDSIGHT_BACKGROUND_CLOSE=on|off forces it either way.

export type CloseFunction = (fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => void;

export interface CloseFailure {
  path: string;
  error: Error;
}

export interface Closer {
  /**
   * Closes `fd` (now or later); `then` runs only after a successful close, `cleanup` only after a
   * failed one. Resolves once the close is queued.
   */
  close(fd: number, path: string, then: () => void, cleanup?: () => void): Promise<void>;
  /** Waits for every queued close and what follows it. */
  drain(): Promise<void>;
  readonly failures: readonly CloseFailure[];
}

export const MAX_IN_FLIGHT = 4;
export const MAX_QUEUED = 384;

export type BackgroundCloseSetting = 'auto' | 'on' | 'off';

/** The environment forces it either way; then the setting; 'auto' means on Windows only. */
export function backgroundCloseWanted(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  setting: BackgroundCloseSetting = 'auto',
): boolean {
  const forced = env.HINDSIGHT_BACKGROUND_CLOSE;
  if (forced === 'on') return true;
  if (forced === 'off') return false;
  if (setting !== 'auto') return setting === 'on';
  return platform === 'win32';
}

export function makeCloser(options: { background?: boolean; close?: CloseFunction } = {}): Closer {
  const background = options.background ?? backgroundCloseWanted();
  return background ? new BackgroundCloser({ close: options.close }) : new InlineCloser(options.close);
}

interface Job {
  fd: number;
  path: string;
  then: () => void;
  cleanup?: () => void;
}

export class BackgroundCloser implements Closer {
  readonly failures: CloseFailure[] = [];
  private readonly queue: Job[] = [];
  private inFlight = 0;
  private roomWaiters: (() => void)[] = [];
  private idleWaiters: (() => void)[] = [];
  private readonly closeFn: CloseFunction;
  private readonly maxInFlight: number;
  private readonly maxQueued: number;
  /** The most closes seen in flight at once, and the longest queue: for tests. */
  peakInFlight = 0;
  peakQueued = 0;

  constructor(options: { close?: CloseFunction; maxInFlight?: number; maxQueued?: number } = {}) {
    this.closeFn = options.close ?? closeAsync;
    this.maxInFlight = options.maxInFlight ?? MAX_IN_FLIGHT;
    this.maxQueued = options.maxQueued ?? MAX_QUEUED;
  }

  async close(fd: number, path: string, then: () => void, cleanup?: () => void): Promise<void> {
    while (this.queue.length >= this.maxQueued) await new Promise<void>((resolve) => this.roomWaiters.push(resolve));
    this.queue.push({ fd, path, then, cleanup });
    this.peakQueued = Math.max(this.peakQueued, this.queue.length);
    this.pump();
  }

  drain(): Promise<void> {
    if (this.queue.length === 0 && this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      const job = this.queue.shift()!;
      this.inFlight++;
      this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
      count('close.background');
      this.closeFn(job.fd, (error) => this.settle(job, error));
      const waiter = this.roomWaiters.shift();
      waiter?.();
    }
  }

  private settle(job: Job, error: NodeJS.ErrnoException | null): void {
    this.inFlight--;
    if (error) fail(job, error, this.failures);
    else runThen(job, this.failures);
    this.pump();
    if (this.queue.length === 0 && this.inFlight === 0) {
      for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }
}

export class InlineCloser implements Closer {
  readonly failures: CloseFailure[] = [];

  constructor(private readonly closeFn?: CloseFunction) {}

  async close(fd: number, path: string, then: () => void, cleanup?: () => void): Promise<void> {
    let failure: NodeJS.ErrnoException | null = null;
    if (this.closeFn) {
      failure = await new Promise<NodeJS.ErrnoException | null>((resolve) => this.closeFn!(fd, resolve));
    } else {
      try {
        closeSync(fd);
      } catch (error) {
        failure = error as NodeJS.ErrnoException;
      }
    }
    if (failure) fail({ fd, path, then, cleanup }, failure, this.failures);
    else runThen({ fd, path, then }, this.failures);
  }

  drain(): Promise<void> {
    return Promise.resolve();
  }
}

function fail(job: Job, error: Error, failures: CloseFailure[]): void {
  failures.push({ path: job.path, error });
  try {
    job.cleanup?.();
  } catch {
    // The failure itself is what gets reported; a leftover temp is swept by a later rescan.
  }
}

function runThen(job: Job, failures: CloseFailure[]): void {
  try {
    job.then();
  } catch (error) {
    failures.push({ path: job.path, error: error as Error });
  }
}

/** The error a batch raises at its end when closes (or what followed them) failed. */
export function closeFailuresError(failures: readonly CloseFailure[], details: Record<string, unknown> = {}): HindsightError {
  const first = failures[0]!;
  const more = failures.length > 1 ? ` and ${failures.length - 1} more` : '';
  return new HindsightError(
    'CLOSE_FAILED',
    `Could not finish writing ${first.path}${more}: ${first.error.message}. Those files were left as they were; try the restore again.`,
    { ...details, failed: failures.map((f) => ({ path: f.path, errno: (f.error as NodeJS.ErrnoException).code ?? null, message: f.error.message })) },
  );
}
