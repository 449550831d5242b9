import { isHindsightError, type HindsightErrorData } from '../../shared/errors.js';

// Anything thrown, turned into the error data that crosses the wire (a call's answer, an error
// event). A HindsightError keeps its code and details; anything else is a bug and says so
// (INTERNAL), without a stack for the UI.

export function errorData(error: unknown): HindsightErrorData {
  if (isHindsightError(error)) return error.toJSON();
  if (error instanceof Error && error.name === 'AbortError') return { code: 'CANCELLED', message: 'Cancelled.' };
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'INTERNAL', message: `Hindsight hit an unexpected error: ${message}. Please report it.` };
}
