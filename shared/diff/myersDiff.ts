// Myers' O(ND) difference algorithm in linear space (the "middle snake" divide and conquer of
// E. Myers, "An O(ND) Difference Algorithm and Its Variations", 1986), over integer sequences.
// It marks the elements of each side that are not in the common subsequence it finds.
//
// Very different inputs would make D, and the time, grow with the input squared; past `maxCost`
// steps a search stops and splits at the point either direction carried furthest (as git's xdiff
// does), so the worst case stays near (N + M) * maxCost, with a diff that is still correct, only
// not always the shortest.

export interface MarkRange {
  aLo: number;
  aHi: number;
  bLo: number;
  bHi: number;
}

/** The default step limit: the square root of the sizes, and at least 256 (xdiff's choice). */
export function defaultMaxCost(n: number, m: number): number {
  return Math.max(256, Math.ceil(Math.sqrt(n + m + 3)));
}

/**
 * Marks in `changedA` / `changedB` every element of a[aLo, aHi) / b[bLo, bHi) that is not part of
 * the common subsequence found.
 */
export function myersMark(a: Int32Array, b: Int32Array, range: MarkRange, changedA: Uint8Array, changedB: Uint8Array, maxCost?: number): void {
  const limit = maxCost ?? defaultMaxCost(range.aHi - range.aLo, range.bHi - range.bLo);
  const most = range.aHi - range.aLo + (range.bHi - range.bLo) + 4;
  const search: Search = { forward: new Int32Array(most + 2), backward: new Int32Array(most + 2) };
  const stack: MarkRange[] = [{ ...range }];
  while (stack.length > 0) {
    let { aLo, aHi, bLo, bHi } = stack.pop()!;
    while (aLo < aHi && bLo < bHi && a[aLo] === b[bLo]) {
      aLo++;
      bLo++;
    }
    while (aLo < aHi && bLo < bHi && a[aHi - 1] === b[bHi - 1]) {
      aHi--;
      bHi--;
    }
    if (aLo === aHi || bLo === bHi) {
      changedA.fill(1, aLo, aHi);
      changedB.fill(1, bLo, bHi);
      continue;
    }
    const split = middleSnake(a, b, aLo, aHi - aLo, bLo, bHi - bLo, search, limit);
    if (split === null) {
      // No point to divide at (cannot happen on trimmed, non-empty ranges): all of it differs.
      changedA.fill(1, aLo, aHi);
      changedB.fill(1, bLo, bHi);
      continue;
    }
    const [x, y] = split;
    stack.push({ aLo: aLo + x, aHi, bLo: bLo + y, bHi }, { aLo, aHi: aLo + x, bLo, bHi: bLo + y });
  }
}

interface Search {
  forward: Int32Array;
  backward: Int32Array;
}

/**
 * A point (x, y), relative to (aLo, bLo), on a shortest path through the n-by-m grid (or, past
 * the step limit, on a short one), that is neither corner. Diagonal k holds the points with
 * x - y = k. The forward search runs from (0, 0); the backward one runs from (n, m) in mirrored
 * coordinates (x counted back from n, y back from m). A search that runs off an edge of the grid
 * stops widening on that side.
 */
function middleSnake(a: Int32Array, b: Int32Array, aLo: number, n: number, bLo: number, m: number, s: Search, maxCost: number): [number, number] | null {
  const maxD = Math.ceil((n + m) / 2);
  const offset = maxD + 1;
  const { forward, backward } = s;
  forward.fill(-1, 0, 2 * offset + 1);
  backward.fill(-1, 0, 2 * offset + 1);
  forward[offset + 1] = 0;
  backward[offset + 1] = 0;
  const delta = n - m;
  const odd = (delta & 1) !== 0;
  let fStart = 0;
  let fEnd = 0;
  let bStart = 0;
  let bEnd = 0;
  const best = { fx: 0, fy: 0, fScore: 0, bx: 0, by: 0, bScore: 0 };
  for (let d = 0; d <= maxD; d++) {
    for (let k = -d + fStart; k <= d - fEnd; k += 2) {
      const left = forward[offset + k - 1]!;
      const right = forward[offset + k + 1]!;
      let x = k === -d || (k !== d && left < right) ? right : left + 1;
      let y = x - k;
      while (x < n && y < m && a[aLo + x] === b[bLo + y]) {
        x++;
        y++;
      }
      forward[offset + k] = x;
      if (x > n) fEnd += 2;
      else if (y > m) fStart += 2;
      else {
        if (x + y > best.fScore) Object.assign(best, { fx: x, fy: y, fScore: x + y });
        if (odd) {
          const mirrored = onGrid(backward, offset, delta - k, n, m, maxD);
          if (mirrored !== null && x >= n - mirrored) return [x, y];
        }
      }
    }
    for (let k = -d + bStart; k <= d - bEnd; k += 2) {
      const left = backward[offset + k - 1]!;
      const right = backward[offset + k + 1]!;
      let x = k === -d || (k !== d && left < right) ? right : left + 1;
      let y = x - k;
      while (x < n && y < m && a[aLo + n - x - 1] === b[bLo + m - y - 1]) {
        x++;
        y++;
      }
      backward[offset + k] = x;
      if (x > n) bEnd += 2;
      else if (y > m) bStart += 2;
      else {
        if (x + y > best.bScore) Object.assign(best, { bx: n - x, by: m - y, bScore: x + y });
        if (!odd) {
          const kf = delta - k;
          const fx = onGrid(forward, offset, kf, n, m, maxD);
          if (fx !== null && fx >= n - x) return [fx, fx - kf];
        }
      }
    }
    if (d >= maxCost) {
      const useForward = best.fScore >= best.bScore;
      const [x, y] = useForward ? [best.fx, best.fy] : [best.bx, best.by];
      return (x === 0 && y === 0) || (x === n && y === m) ? null : [x, y];
    }
  }
  return null;
}

/** The x a search holds on diagonal k, when it has reached k and the point lies on the grid. */
function onGrid(v: Int32Array, offset: number, k: number, n: number, m: number, maxD: number): number | null {
  if (k < -maxD - 1 || k > maxD + 1) return null;
  const x = v[offset + k]!;
  return x >= 0 && x <= n && x - k >= 0 && x - k <= m ? x : null;
}
