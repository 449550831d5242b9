import type { Writable } from 'node:stream';
import { writeChunk } from './writeChunk.js';

/**
 * A JSON array written a page at a time: byte for byte what JSON.stringify of the whole array
 * followed by a newline gives, without the whole array or its text in memory.
 */
export async function writeJsonPages(out: Writable, pages: Iterable<readonly unknown[]>): Promise<void> {
  let first = true;
  for (const page of pages) {
    if (page.length === 0) continue;
    const items = page.map((item) => JSON.stringify(item)).join(',');
    await writeChunk(out, first ? `[${items}` : `,${items}`);
    first = false;
  }
  await writeChunk(out, first ? '[]\n' : ']\n');
}
