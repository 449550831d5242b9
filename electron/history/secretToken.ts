import { randomBytes, timingSafeEqual } from 'node:crypto';

// A secret of ours (the browser host's, the recorder endpoint's): 32 random bytes, compared in constant time.

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sameToken(given: string | undefined | null, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
