import type * as z from 'zod';
import { HindsightError } from '../../../shared/errors.js';

/** A request that failed its schema: the first few issues, each with where it was. */
export function badRequest(call: string, error: z.ZodError): HindsightError {
  const issues = error.issues.slice(0, 10).map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
  const first = issues[0];
  const where = first ? `${first.path ? `${first.path}: ` : ''}${first.message}` : 'invalid';
  return new HindsightError('BAD_REQUEST', `The ${call} request is malformed (${where}).`, { call, issues });
}
