import type { NewVersion } from '../db/commitSnapshot.js';
import { bytesInCommon, spanCounts, type SpanCounts, type SpanOptions } from './spanCounts.js';

// Which of a change's additions are files moved from one of its deletions (git mv, mv, an
// editor's rename), decided as `git diff -M50%` decides between two trees (diffcore-rename), so a
// history shows a rename exactly where git would:
// 1. The same bytes (and for a symlink the same type): each addition in path order takes the
//    first unused deletion with those bytes, preferring one of the same basename.
// 2. Same basenames: a basename found once among the deletions left and once among the additions
//    left pairs them when they score at least 75% (halfway between the threshold and 100%).
// 3. The rest, unless (additions left) x (deletions left) passes git's rename limit squared (then
//    git skips this step, and so does this): every pair scored, each addition keeping its best
//    four, and the pairs taken best first, a same-basename pair before another of equal score, at
//    or above 50%, each deletion once.
// A score is diffcore-delta's (spanCounts.ts): bytes in common times 60,000 over the larger size,
// rounded down; only regular files are scored. Ties fall as git's do: paths in byte order, git's
// stable sort of the kept candidates.

/** git's MAX_SCORE: a score is out of this. */
const MAX_SCORE = 60000;
/** -M50%, git's default threshold. */
export const RENAME_SCORE = MAX_SCORE / 2;
/** Same-basename pairs are taken early from this score on (git: the threshold plus half the rest). */
const BASENAME_SCORE = RENAME_SCORE + RENAME_SCORE / 2;
/** diff.renameLimit's default (git 2.33 on). */
export const RENAME_LIMIT = 1000;
/** Candidates an addition keeps (git's NUM_CANDIDATE_PER_DST). */
const KEPT_PER_ADDITION = 4;
/** Identical deletions looked at for one addition (git looks at 100, then takes the best so far). */
const MOST_IDENTICAL = 100;

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

/** A file's bytes a piece at a time; undefined (or a throw while reading) when it cannot be read: then no inexact pair with it. */
export type BytesOf = (hash: string, size: number) => Iterable<Uint8Array> | undefined;

interface Side {
  path: string;
  hash: string;
  size: number;
  type: NewVersion['type'];
  base: string;
  paired: boolean;
}

export interface RenameOptions extends SpanOptions {
  /** git's diff.renameLimit: past its square, pairs are not scored (exact and same-basename pairs still count); 0: no limit. */
  limit?: number;
}

export function findRenames(added: readonly NewVersion[], deleted: readonly DeletedFile[], bytesOf: BytesOf, options: RenameOptions = {}): Rename[] {
  const limit = options.limit ?? RENAME_LIMIT;
  const additions = inByteOrder(added.flatMap((a) => (a.hash === null ? [] : [side(a.path, a.hash, a.size, a.type)])));
  const deletions = inByteOrder(deleted.map((d) => side(d.path, d.hash, d.size, d.type)));
  const renames: Rename[] = [];
  const pair = (a: Side, d: Side) => {
    a.paired = d.paired = true;
    renames.push({ path: a.path, fromPath: d.path });
  };
  for (const [a, d] of identicalPairs(additions, deletions)) pair(a, d);
  const score = scorer(bytesOf, options);
  const sources = () => deletions.filter((d) => !d.paired);
  const targets = () => additions.filter((a) => !a.paired);
  for (const [a, d] of basenamePairs(targets(), sources(), score)) pair(a, d);
  const [left, from] = [targets(), sources()];
  // A limit of 0 or less is none, as git reads it.
  if (left.length > 0 && from.length > 0 && (limit <= 0 || left.length * from.length <= limit * limit)) {
    for (const [a, d] of similarPairs(left, from, score)) pair(a, d);
  }
  return renames.sort((x, y) => byteOrder(x.path, y.path));
}

function side(path: string, hash: string, size: number, type: NewVersion['type']): Side {
  return { path, hash, size, type, base: path.slice(path.lastIndexOf('/') + 1), paired: false };
}

/** Step 1: the same bytes. */
function identicalPairs(additions: readonly Side[], deletions: readonly Side[]): [Side, Side][] {
  const byContents = new Map<string, Side[]>();
  for (const d of deletions) {
    const key = `${d.type}:${d.hash}`;
    const same = byContents.get(key);
    if (same) same.push(d);
    else byContents.set(key, [d]);
  }
  const pairs: [Side, Side][] = [];
  for (const a of additions) {
    let best: Side | undefined;
    let looked = 0;
    for (const d of byContents.get(`${a.type}:${a.hash}`) ?? []) {
      if (d.paired) continue;
      best ??= d;
      if (d.base === a.base) {
        best = d;
        break;
      }
      if (++looked === MOST_IDENTICAL) break;
    }
    if (!best) continue;
    best.paired = a.paired = true;
    pairs.push([a, best]);
  }
  return pairs;
}

/** Step 2: a basename once on each side, scoring at least 75%. */
function basenamePairs(additions: readonly Side[], deletions: readonly Side[], score: Scorer): [Side, Side][] {
  const once = (sides: readonly Side[]) => {
    const byBase = new Map<string, Side | null>();
    for (const s of sides) byBase.set(s.base, byBase.has(s.base) ? null : s);
    return byBase;
  };
  const targets = once(additions);
  const sources = once(deletions);
  const pairs: [Side, Side][] = [];
  for (const d of deletions) {
    const a = targets.get(d.base);
    if (!a || sources.get(d.base) !== d) continue;
    if (score(d, a, BASENAME_SCORE) >= BASENAME_SCORE) pairs.push([a, d]);
  }
  return pairs;
}

interface Candidate {
  addition: number;
  deletion: number;
  score: number;
  sameBase: boolean;
}

/** Step 3: every pair scored, each addition's best four kept, then taken best first. */
function similarPairs(additions: readonly Side[], deletions: readonly Side[], score: Scorer): [Side, Side][] {
  const kept: Candidate[] = [];
  additions.forEach((a, addition) => {
    const best: (Candidate | undefined)[] = new Array<Candidate | undefined>(KEPT_PER_ADDITION).fill(undefined);
    deletions.forEach((d, deletion) => {
      keepIfBetter(best, { addition, deletion, score: score(d, a, RENAME_SCORE), sameBase: d.base === a.base });
    });
    for (const c of best) if (c) kept.push(c);
  });
  // Array.prototype.sort is stable, as git's STABLE_QSORT: equal candidates keep their order.
  kept.sort(worseThan);
  const pairs: [Side, Side][] = [];
  for (const c of kept) {
    if (c.score < RENAME_SCORE) break;
    const [a, d] = [additions[c.addition]!, deletions[c.deletion]!];
    if (a.paired || d.paired) continue;
    a.paired = d.paired = true;
    pairs.push([a, d]);
  }
  return pairs;
}

/** git's record_if_better: the first of the worst slots (an empty one first) gives way to a strictly better candidate. */
function keepIfBetter(slots: (Candidate | undefined)[], candidate: Candidate): void {
  let worst = 0;
  for (let i = 1; i < slots.length; i++) if (worseThan(slots[i], slots[worst]) > 0) worst = i;
  if (worseThan(slots[worst], candidate) > 0) slots[worst] = candidate;
}

/** git's score_compare: positive when `a` ranks below `b`; an empty slot ranks below any candidate. */
function worseThan(a: Candidate | undefined, b: Candidate | undefined): number {
  if (!a) return b ? 1 : 0;
  if (!b) return -1;
  if (a.score === b.score) return Number(b.sameBase) - Number(a.sameBase);
  return b.score - a.score;
}

type Scorer = (from: Side, to: Side, minimum: number) => number;

/** git's estimate_similarity, each file's spans counted once whatever the number of pairs it is in. */
function scorer(bytesOf: BytesOf, options: SpanOptions): Scorer {
  const spans = new Map<string, SpanCounts | undefined>();
  const spansOf = (s: Side) => {
    if (!spans.has(s.hash)) spans.set(s.hash, readSpans(bytesOf, s, options));
    return spans.get(s.hash);
  };
  return (from, to, minimum) => {
    if (from.type !== 'file' || to.type !== 'file') return 0;
    const larger = Math.max(from.size, to.size);
    // Sizes too far apart to reach the score: not read at all.
    if (larger * (MAX_SCORE - minimum) < (larger - Math.min(from.size, to.size)) * MAX_SCORE) return 0;
    if (to.size === 0) return 0;
    const [a, b] = [spansOf(from), spansOf(to)];
    if (!a || !b) return 0;
    return Math.floor((bytesInCommon(a, b) * MAX_SCORE) / larger);
  };
}

function readSpans(bytesOf: BytesOf, s: Side, options: SpanOptions): SpanCounts | undefined {
  try {
    const pieces = bytesOf(s.hash, s.size);
    return pieces && spanCounts(pieces, options);
  } catch {
    return undefined;
  }
}

function inByteOrder(sides: Side[]): Side[] {
  return sides.sort((x, y) => byteOrder(x.path, y.path));
}

/** git's order of paths: by their UTF-8 bytes (a string compare orders by UTF-16 units, which differs past U+FFFF). */
function byteOrder(x: string, y: string): number {
  return x === y ? 0 : Buffer.compare(Buffer.from(x), Buffer.from(y));
}
