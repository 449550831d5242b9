import { errorFromData, isHindsightError, type HindsightErrorData } from '../../shared/errors.js';
import { errorData } from './errorData.js';

// A worker thread's error as a message and back: a HindsightError (or a cancel) keeps its code
// and details across the thread, as errorData words it for the wire, so an unreadable index says
// so as it would on the history process's thread. Any other error keeps only its message and
// comes back as a plain Error: the caller's thread treats it as if thrown there.

export type WorkerFailure = HindsightErrorData | { code?: undefined; message: string; details?: undefined };

export function workerFailure(error: unknown): WorkerFailure {
  const typed = isHindsightError(error) || (error instanceof Error && error.name === 'AbortError');
  return typed ? errorData(error) : { message: error instanceof Error ? error.message : String(error) };
}

export function errorOfFailure(failure: WorkerFailure): Error {
  return failure.code ? errorFromData(failure) : new Error(failure.message);
}
