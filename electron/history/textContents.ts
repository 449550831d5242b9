// Whether bytes are text, the one test the viewer (versions/encodeFileBytes.ts) and the search
// index share: a NUL byte makes them binary, and so does anything that is not valid UTF-8.

export type TextContents = { kind: 'text'; text: string } | { kind: 'binary' } | { kind: 'encoding' };

const decoder = new TextDecoder('utf-8', { fatal: true });

export function textContents(bytes: Uint8Array): TextContents {
  if (bytes.includes(0)) return { kind: 'binary' };
  try {
    return { kind: 'text', text: decoder.decode(bytes) };
  } catch {
    return { kind: 'encoding' };
  }
}
