import type { FileBytes } from '../../../shared/contract.js';

// The bytes a call answered with, as text or as a Blob for an <img>.

export function bytesOf(file: FileBytes): Uint8Array<ArrayBuffer> {
  if (file.encoding === 'utf8') return new TextEncoder().encode(file.data);
  const raw = atob(file.data);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

export function textOf(file: FileBytes | null): string {
  if (!file) return '';
  if (file.encoding === 'utf8') return file.data;
  return new TextDecoder('utf-8', { fatal: false }).decode(bytesOf(file));
}

export function sameBytes(a: FileBytes | null, b: FileBytes | null): boolean {
  return !!a && !!b && a.size === b.size && a.encoding === b.encoding && a.data === b.data && !a.truncated && !b.truncated;
}
