import type { PackEntry } from '../../remoteLayout/packFormat.js';
import type { BlobLocation } from '../../db/remoteLedger.js';

// Which requests fetch a set of blobs: a large blob is one GET of its own object; blobs of one
// pack are fetched by range, neighbours (closer than MERGE_GAP) joined into one range, so a clone
// that needs most of a pack gets it in one request and one blob costs one small range GET.

const MERGE_GAP = 1024 * 1024;
const MAX_RANGE = 64 * 1024 * 1024;

export type FetchRequest =
  { kind: 'range'; pack: string; offset: number; length: number; entries: PackEntry[] } | { kind: 'alone'; hash: string; size: number };

export function planFetch(needed: Iterable<[hash: string, location: BlobLocation]>): FetchRequest[] {
  const requests: FetchRequest[] = [];
  const byPack = new Map<string, PackEntry[]>();
  for (const [hash, location] of needed) {
    if ('alone' in location) requests.push({ kind: 'alone', hash, size: location.size });
    else {
      const entries = byPack.get(location.pack) ?? [];
      entries.push(location.entry);
      byPack.set(location.pack, entries);
    }
  }
  for (const [pack, entries] of byPack) {
    entries.sort((a, b) => a[1] - b[1]);
    let current: Extract<FetchRequest, { kind: 'range' }> | undefined;
    for (const entry of entries) {
      const [, offset, length] = entry;
      const end = offset + length;
      if (current && offset - (current.offset + current.length) <= MERGE_GAP && end - current.offset <= MAX_RANGE) {
        current.length = Math.max(current.length, end - current.offset);
        current.entries.push(entry);
      } else {
        current = { kind: 'range', pack, offset, length, entries: [entry] };
        requests.push(current);
      }
    }
  }
  return requests;
}
