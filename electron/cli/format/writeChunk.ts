import { once } from 'node:events';
import type { Writable } from 'node:stream';

/** Writes one piece of a long answer and waits while the reader is behind, so output never piles up in memory. */
export async function writeChunk(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}
