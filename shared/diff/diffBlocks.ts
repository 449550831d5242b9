// The changes between two line sequences as blocks: each block replaces lines [aStart, aEnd) of
// the first with lines [bStart, bEnd) of the second (either may be empty), with at least one
// unchanged line between two blocks. Built from the marks the diff algorithms leave, after the
// marked runs were slid (below) so that the same edit always shows the same way.

export interface DiffBlock {
  aStart: number;
  aEnd: number;
  bStart: number;
  bEnd: number;
}

/** Walks both sides' marks in step: unchanged lines pair up in order, marked runs form blocks. */
export function blocksFromMarks(changedA: Uint8Array, changedB: Uint8Array): DiffBlock[] {
  const blocks: DiffBlock[] = [];
  let i = 0;
  let j = 0;
  const n = changedA.length;
  const m = changedB.length;
  while (i < n || j < m) {
    if (i < n && j < m && !changedA[i] && !changedB[j]) {
      i++;
      j++;
      continue;
    }
    const aStart = i;
    const bStart = j;
    while (i < n && changedA[i]) i++;
    while (j < m && changedB[j]) j++;
    blocks.push({ aStart, aEnd: i, bStart, bEnd: j });
  }
  return blocks;
}

/**
 * A run of marked lines can often sit in several places: adding "x" after "x" is also adding it
 * before. Each run of one side is slid up as far as it goes, then down as far as it goes, joining
 * the runs it meets on the way; it then stays at its lowest place (as GNU diff and git leave it:
 * an added function ends with its blank line rather than starting with the one before), unless a
 * place on the way lines it up with a change on the other side, where the two read as one block.
 */
export function slideMarks(lines: Int32Array, changed: Uint8Array, otherChanged: Uint8Array): void {
  const n = lines.length;
  // The other side's unchanged lines, in order: the u-th unchanged line of this side pairs with the u-th there.
  const pairs: number[] = [];
  for (let j = 0; j < otherChanged.length; j++) if (!otherChanged[j]) pairs.push(j);
  pairs.push(otherChanged.length);
  const meetsOtherChange = (u: number) => {
    const j = pairs[u]!;
    return j > 0 && otherChanged[j - 1] === 1;
  };
  let unchangedBefore = 0;
  for (let i = 0; i < n;) {
    if (!changed[i]) {
      unchangedBefore++;
      i++;
      continue;
    }
    let start = i;
    let end = i;
    while (end < n && changed[end]) end++;
    let aligned = -1;
    for (let length = -1; length !== end - start;) {
      length = end - start;
      while (start > 0 && lines[start - 1] === lines[end - 1]) {
        changed[--start] = 1;
        changed[--end] = 0;
        unchangedBefore--;
        while (start > 0 && changed[start - 1]) start--;
      }
      aligned = meetsOtherChange(unchangedBefore) ? end : -1;
      while (end < n && lines[start] === lines[end]) {
        changed[start++] = 0;
        changed[end++] = 1;
        unchangedBefore++;
        while (end < n && changed[end]) end++;
        if (meetsOtherChange(unchangedBefore)) aligned = end;
      }
    }
    while (aligned >= 0 && end > aligned) {
      changed[--start] = 1;
      changed[--end] = 0;
      unchangedBefore--;
    }
    i = end;
  }
}
