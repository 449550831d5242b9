import type { DiffBlock } from './diffBlocks.js';

// Blocks grouped into hunks as `diff -u` prints them: each block with `context` unchanged lines
// around it, and two blocks whose context would touch or overlap (at most 2 * context unchanged
// lines apart) in the same hunk. "Change 2 of 4" in the viewer counts these.

export interface DiffHunk {
  /** Lines shown, context included: [aStart, aEnd) of the first text, [bStart, bEnd) of the second. */
  aStart: number;
  aEnd: number;
  bStart: number;
  bEnd: number;
  /** The blocks in it: blocks[firstBlock .. lastBlock] (inclusive). */
  firstBlock: number;
  lastBlock: number;
}

export function groupHunks(blocks: readonly DiffBlock[], aLength: number, bLength: number, context = 3): DiffHunk[] {
  const hunks: DiffHunk[] = [];
  for (let k = 0; k < blocks.length; k++) {
    const block = blocks[k]!;
    const last = hunks.at(-1);
    if (last && block.aStart - blocks[last.lastBlock]!.aEnd <= 2 * context) {
      last.lastBlock = k;
      last.aEnd = Math.min(aLength, block.aEnd + context);
      last.bEnd = Math.min(bLength, block.bEnd + context);
      continue;
    }
    hunks.push({
      aStart: Math.max(0, block.aStart - context),
      aEnd: Math.min(aLength, block.aEnd + context),
      bStart: Math.max(0, block.bStart - context),
      bEnd: Math.min(bLength, block.bEnd + context),
      firstBlock: k,
      lastBlock: k,
    });
  }
  return hunks;
}
