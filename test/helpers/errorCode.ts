import { HindsightError } from '../../shared/errors.js';

/** The code of the HindsightError a call throws, or 'no error'; any other error is thrown on. */
export function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof HindsightError) return error.code;
    throw error;
  }
  return 'no error';
}
