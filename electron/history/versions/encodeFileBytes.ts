import type { FileBytes } from '../../../shared/contract.js';
import { textContents } from '../textContents.js';

// A version's bytes as they travel to the viewer: at most maxBytes of them, as text when they are
// UTF-8 (cut on a character boundary, never mid-sequence), else as base64, with the whole size
// and a truncated marker so the viewer can say "showing the first 2 MiB of 40 MiB".

export interface BytesSource {
  path: string;
  versionId: number | null;
  type: 'file' | 'symlink';
  mode: number;
  /** The whole size on disk (may exceed bytes.length when only a head was read). */
  size: number;
  bytes: Buffer;
}

export function encodeFileBytes(source: BytesSource, maxBytes: number): FileBytes {
  let head = source.bytes.length > maxBytes ? source.bytes.subarray(0, maxBytes) : source.bytes;
  const truncated = source.size > head.length;
  if (truncated) head = head.subarray(0, utf8Boundary(head));
  const contents = textContents(head);
  const text = contents.kind === 'text' ? contents.text : null;
  const common = { path: source.path, versionId: source.versionId, size: source.size, truncated, type: source.type, mode: source.mode };
  if (text !== null) return { ...common, returnedBytes: head.length, encoding: 'utf8', binary: false, data: text };
  // Binary: the raw head, not the boundary-trimmed one (no characters to keep whole).
  const raw = source.bytes.subarray(0, Math.min(maxBytes, source.bytes.length));
  return { ...common, returnedBytes: raw.length, encoding: 'base64', binary: true, data: raw.toString('base64') };
}

/** The length of `bytes` without a trailing, incomplete UTF-8 sequence. */
export function utf8Boundary(bytes: Buffer): number {
  let start = bytes.length - 1;
  // Walk back over at most 3 continuation bytes to the lead byte of the last sequence.
  while (start >= 0 && bytes.length - start <= 4 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start--;
  if (start < 0) return bytes.length;
  const lead = bytes[start] ?? 0;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return bytes.length - start >= need ? bytes.length : start;
}
