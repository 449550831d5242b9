import { HindsightError, type ErrorCode } from '../../shared/errors.js';

// A worker thread's error as a message and back: a HindsightError keeps its code and details
// across the thread (an unreadable index says so as it would on the history process's thread),
// anything else its message.

export interface WorkerFailure {
  type: 'failed';
  message: string;
  code?: string;
  details?: Record<string, unknown>;
}

export function workerFailure(error: unknown): WorkerFailure {
  return error instanceof HindsightError
    ? { type: 'failed', message: error.message, code: error.code, details: error.details }
    : { type: 'failed', message: error instanceof Error ? error.message : String(error) };
}

export function errorOfFailure(failure: WorkerFailure): Error {
  return failure.code ? new HindsightError(failure.code as ErrorCode, failure.message, failure.details) : new Error(failure.message);
}
