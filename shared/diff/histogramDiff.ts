import { myersMark, type MarkRange } from './myersDiff.js';

// The histogram diff (as in git's `--histogram` and JGit): find, in the part of the two files
// being compared, the longest run of lines common to both among the runs built around the lines
// that occur least often in the first file; keep it, and do the same on either side of it. Lines
// that occur once are the strongest anchors (the patience idea), and a run of unchanged lines is
// never cut in two by a common line such as "}" or a blank. Lines that occur more than MAX_CHAIN
// times are never anchors; where every line in common is that frequent, Myers' algorithm decides.

const MAX_CHAIN = 64;

/**
 * Marks the lines of a and b (as interned ids below `distinct`) that are not part of the common
 * lines found, in changedA and changedB.
 */
export function histogramMark(a: Int32Array, b: Int32Array, distinct: number, changedA: Uint8Array, changedB: Uint8Array): void {
  const index: Index = { head: new Int32Array(distinct).fill(-1), count: new Int32Array(distinct), next: new Int32Array(a.length) };
  // No common start or end is set aside first, here or below: the anchors decide everything (as
  // in git, whose results these match).
  const stack: MarkRange[] = [{ aLo: 0, aHi: a.length, bLo: 0, bHi: b.length }];
  while (stack.length > 0) {
    const range = stack.pop()!;
    if (range.aLo === range.aHi || range.bLo === range.bHi) {
      changedA.fill(1, range.aLo, range.aHi);
      changedB.fill(1, range.bLo, range.bHi);
      continue;
    }
    const anchor = findAnchor(a, b, range, index);
    if (anchor === 'too-common') {
      myersMark(a, b, range, changedA, changedB);
    } else if (anchor === null) {
      // Not one line in common: the whole part changed.
      changedA.fill(1, range.aLo, range.aHi);
      changedB.fill(1, range.bLo, range.bHi);
    } else {
      stack.push(
        { aLo: anchor.aEnd, aHi: range.aHi, bLo: anchor.bEnd, bHi: range.bHi },
        { aLo: range.aLo, aHi: anchor.aStart, bLo: range.bLo, bHi: anchor.bStart },
      );
    }
  }
}

interface Index {
  /** For each line id, its first position in the indexed part of a (-1: none). */
  head: Int32Array;
  /** For each line id, how often it occurs in the indexed part of a. */
  count: Int32Array;
  /** For each position of a, the next position with the same line (-1: none). */
  next: Int32Array;
}

interface Anchor {
  aStart: number;
  aEnd: number;
  bStart: number;
  bEnd: number;
}

function findAnchor(a: Int32Array, b: Int32Array, r: MarkRange, index: Index): Anchor | null | 'too-common' {
  const { head, count, next } = index;
  // Chains built from the end, so each one runs in increasing position.
  for (let i = r.aHi - 1; i >= r.aLo; i--) {
    const id = a[i]!;
    next[i] = head[id]!;
    head[id] = i;
    count[id]!++;
  }
  let best: Anchor | null = null;
  let bestCount = MAX_CHAIN + 1;
  let common = false;
  {
    for (let bi = r.bLo; bi < r.bHi;) {
      let bNext = bi + 1;
      const id = b[bi]!;
      if (head[id] !== -1) common = true;
      if (head[id] !== -1 && count[id]! <= bestCount) {
        for (let ai = head[id]!; ai !== -1 && count[id]! <= bestCount;) {
          // Grow the common run around (ai, bi) both ways, tracking its rarest line.
          let aStart = ai;
          let bStart = bi;
          let aEnd = ai + 1;
          let bEnd = bi + 1;
          let rarest = count[id]!;
          while (aStart > r.aLo && bStart > r.bLo && a[aStart - 1] === b[bStart - 1]) {
            aStart--;
            bStart--;
            rarest = Math.min(rarest, count[a[aStart]!]!);
          }
          while (aEnd < r.aHi && bEnd < r.bHi && a[aEnd] === b[bEnd]) {
            rarest = Math.min(rarest, count[a[aEnd]!]!);
            aEnd++;
            bEnd++;
          }
          if (bNext < bEnd) bNext = bEnd;
          if (best === null || aEnd - aStart > best.aEnd - best.aStart || rarest < bestCount) {
            best = { aStart, aEnd, bStart, bEnd };
            bestCount = rarest;
          }
          // Occurrences inside the run just measured would only measure it again.
          ai = next[ai]!;
          while (ai !== -1 && ai < aEnd) ai = next[ai]!;
        }
      }
      bi = bNext;
    }
  }
  for (let i = r.aLo; i < r.aHi; i++) {
    head[a[i]!] = -1;
    count[a[i]!] = 0;
  }
  // Lines in common, but each of them too frequent to anchor on: Myers decides.
  if (common && bestCount > MAX_CHAIN) return 'too-common';
  return best;
}
