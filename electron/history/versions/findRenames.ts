import type { NewVersion } from '../db/commitSnapshot.js';

// Which of a change's additions are files moved from one of its deletions (git mv, mv, an
// editor's rename), by git's rule of thumb: the same bytes, or contents at least 50% similar
// (git's default for `-M`). Similarity here is the share of lines the two files have in common
// (as multisets: a line counts as often as it appears in both), over the longer file's lines,
// and is asked only of regular files up to 1 MiB, with at most 100 deletions and 100 additions
// in one change (a checkout of a thousand files is not compared pairwise). Each deleted file
// goes to one addition at most, the most similar first.

export const RENAME_SIMILARITY = 0.5;
export const RENAME_MAX_BYTES = 1024 * 1024;
const MOST_COMPARED = 100;

export interface Rename {
  path: string;
  fromPath: string;
}

/** A deleted path with the contents it last had. */
export interface DeletedFile {
  path: string;
  hash: string;
  size: number;
  type: NewVersion['type'];
}

export function findRenames(
  added: readonly NewVersion[],
  deleted: readonly DeletedFile[],
  bytesOf: (hash: string, size: number) => Buffer | undefined,
): Rename[] {
  const renames: Rename[] = [];
  const taken = new Set<string>();
  const left: NewVersion[] = [];
  // Same bytes first: no reading needed.
  const byHash = new Map<string, DeletedFile[]>();
  for (const d of deleted) byHash.set(`${d.type}:${d.hash}`, [...(byHash.get(`${d.type}:${d.hash}`) ?? []), d]);
  for (const a of added) {
    const same = byHash.get(`${a.type}:${a.hash}`)?.find((d) => !taken.has(d.path));
    if (same) {
      taken.add(same.path);
      renames.push({ path: a.path, fromPath: same.path });
    } else left.push(a);
  }
  const candidates = deleted.filter((d) => !taken.has(d.path) && comparable(d));
  const additions = left.filter(comparable);
  if (candidates.length === 0 || additions.length === 0 || candidates.length > MOST_COMPARED || additions.length > MOST_COMPARED) return renames;
  const lines = new Map<string, Map<string, number> | undefined>();
  const linesOf = (hash: string, size: number) => {
    if (!lines.has(hash)) {
      const bytes = bytesOf(hash, size);
      lines.set(hash, bytes && lineCounts(bytes));
    }
    return lines.get(hash);
  };
  const pairs: { a: NewVersion; d: DeletedFile; score: number }[] = [];
  for (const a of additions) {
    const aLines = linesOf(a.hash!, a.size);
    if (!aLines) continue;
    for (const d of candidates) {
      // Sizes too far apart cannot share half their lines: not read at all.
      if (Math.min(a.size, d.size) < RENAME_SIMILARITY * Math.max(a.size, d.size) * 0.5) continue;
      const dLines = linesOf(d.hash, d.size);
      const score = dLines ? similarity(aLines, dLines) : 0;
      if (score >= RENAME_SIMILARITY) pairs.push({ a, d, score });
    }
  }
  pairs.sort((x, y) => y.score - x.score);
  const named = new Set<string>();
  for (const { a, d } of pairs) {
    if (named.has(a.path) || taken.has(d.path)) continue;
    named.add(a.path);
    taken.add(d.path);
    renames.push({ path: a.path, fromPath: d.path });
  }
  return renames.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

function comparable(v: { type: NewVersion['type']; hash: string | null; size: number }): boolean {
  return v.type === 'file' && v.hash !== null && v.size > 0 && v.size <= RENAME_MAX_BYTES;
}

function lineCounts(bytes: Buffer): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of bytes.toString('latin1').split('\n')) counts.set(line, (counts.get(line) ?? 0) + 1);
  return counts;
}

/** Lines in common over the longer file's lines: 1 for the same lines in any order, 0 for none shared. */
export function similarity(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  let common = 0;
  let aTotal = 0;
  let bTotal = 0;
  for (const n of a.values()) aTotal += n;
  for (const n of b.values()) bTotal += n;
  for (const [line, n] of a) common += Math.min(n, b.get(line) ?? 0);
  return common / Math.max(aTotal, bTotal, 1);
}
