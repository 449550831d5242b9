import type { WorkerFailure } from './workerFailure.js';

// The messages between a WorkerHost (workerHost.ts) and the worker thread it started
// (serveRequests.ts): each request goes with an id its reply or failure names, and the thread
// tells once, at its start, the niceness it runs at. A request may be told progress (a walk's
// entries) under its id before its reply.

/** What the host gives the thread at its start (its workerData). */
export interface WorkerSetup {
  /** Run at the lowest priority (threadPriority.ts), where a thread's priority is its own. */
  lowPriority: boolean;
}

export interface ToWorker<Request> {
  id: number;
  request: Request;
}

export type FromWorker<Reply, Progress = never> =
  | { type: 'started'; niceness: number | null }
  | { type: 'progress'; id: number; progress: Progress }
  | { type: 'reply'; id: number; reply: Reply }
  | { type: 'failed'; id: number; failure: WorkerFailure };
