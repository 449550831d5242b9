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

/** The HindsightError a promise rejects with; the test fails when it resolves or rejects with anything else. */
export async function failure(promise: Promise<unknown>): Promise<HindsightError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof HindsightError)) throw new Error(`expected a HindsightError, got ${error instanceof Error ? error.message : String(error)}`);
  return error;
}
