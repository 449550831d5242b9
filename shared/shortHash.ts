// Commits as people see them: by the first 7 hex digits of their id, as git itself shortens
// them. A title never carries a whole 40 (or 64) digit id: it wraps and says nothing more.

export const SHORT_HASH = 7;

export function shortHash(oid: string): string {
  return oid.slice(0, SHORT_HASH);
}

/** Every whole commit id in a text shortened ("After checkout to 3f2a…40 digits" -> "After checkout to 3f2a9c1"). */
export function shortenHashes(text: string): string {
  return text.replace(/\b(?:[0-9a-f]{64}|[0-9a-f]{40})\b/g, (oid) => shortHash(oid));
}
