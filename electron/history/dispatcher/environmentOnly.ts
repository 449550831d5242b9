import { HindsightError } from '../../../shared/errors.js';

// A history process without a keychain (the browser host) takes remote credentials from its own
// environment only: credentials handed over by a call would silently override what the person
// who started it chose, so the call is refused and nothing is kept.

export function environmentOnly(): HindsightError {
  return new HindsightError(
    'KEYCHAIN_UNAVAILABLE',
    'This host has no keychain: it takes remote credentials from the environment it was started with (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE).',
  );
}
