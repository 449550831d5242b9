import * as z from 'zod';
import { decodeGzipJson, encodeGzipJson } from './jsonObject.js';
import { packEntrySchema, type PackEntry } from './packFormat.js';
import { BLOB_HASH } from '../../../shared/blobHash.js';

// A pack index (index/<sha256>.json.gz): the packs one push wrote with where each blob sits in
// them, and the large blobs it wrote standing alone. Written after the data it lists and before
// any snapshot record that needs it; the union of a project's indexes is what its remote holds.

const HASH = z.string().regex(BLOB_HASH);

export const indexSchema = z.object({
  format: z.literal(1),
  packs: z.array(z.object({ pack: HASH, size: z.number().int().nonnegative(), blobs: z.array(packEntrySchema) })),
  /** [hash, size] of each blob standing alone (object blobs/<hash>). */
  standalone: z.array(z.tuple([HASH, z.number().int().nonnegative()])),
});

export type PackIndex = z.infer<typeof indexSchema>;
export type IndexedPack = PackIndex['packs'][number];

export function encodeIndex(packs: { pack: string; size: number; blobs: PackEntry[] }[], standalone: [string, number][]): { body: Buffer; hash: string } {
  const value: PackIndex = { format: 1, packs, standalone };
  return encodeGzipJson(value);
}

export function decodeIndex(body: Buffer, hash: string): PackIndex {
  return decodeGzipJson(body, indexSchema, `pack index ${hash.slice(0, 12)}…`, hash);
}
