import { createHash } from 'node:crypto';

/** A project's id: the first 32 hex digits of the SHA-256 of its folder's real path. */
export function projectIdOf(realRoot: string): string {
  return createHash('sha256').update(realRoot).digest('hex').slice(0, 32);
}
