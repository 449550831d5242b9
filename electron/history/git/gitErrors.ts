import { HindsightError } from '../../../shared/errors.js';

// A git call that printed more than its allowance: git was killed, and what it printed up to the
// allowance is kept for the caller (a listing cut short can still be shown as "the first N").
// The partial output is a property, not a detail: details cross processes as JSON.

export class GitOutputOverflow extends HindsightError {
  constructor(
    message: string,
    details: Record<string, unknown>,
    readonly partial: Buffer,
  ) {
    super('GIT_OUTPUT_OVERFLOW', message, details);
  }
}
