import type { z } from 'zod';
import { HindsightError, isHindsightError, type HindsightErrorData } from '../../../shared/errors.js';

// Anything thrown, turned into the error data that crosses the wire. A HindsightError keeps its
// code and details; anything else is a bug and says so (INTERNAL), without a stack for the UI.

export function errorData(error: unknown): HindsightErrorData {
  if (isHindsightError(error)) return error.toJSON();
  if (error instanceof Error && error.name === 'AbortError') return { code: 'CANCELLED', message: 'Cancelled.' };
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'INTERNAL', message: `Hindsight hit an unexpected error: ${message}. Please report it.` };
}

/** A request that failed its schema: the first few issues, each with where it was. */
export function badRequest(call: string, error: z.ZodError): HindsightError {
  const issues = error.issues.slice(0, 10).map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
  const first = issues[0];
  const where = first ? `${first.path ? `${first.path}: ` : ''}${first.message}` : 'invalid';
  return new HindsightError('BAD_REQUEST', `The ${call} request is malformed (${where}).`, { call, issues });
}
