import { blocksFromMarks, slideMarks, type DiffBlock } from './diffBlocks.js';
import { groupHunks, type DiffHunk } from './diffHunks.js';
import { histogramMark } from './histogramDiff.js';
import { internLines, splitLines } from './splitLines.js';

// The line diff of two texts, computed once and read by everything that shows it: the blocks
// that changed, the hunks `diff -u` would print, and the lines added and removed.

export interface TextDiff {
  /** Lines of each text (the last one may lack its newline). */
  aLines: number;
  bLines: number;
  blocks: DiffBlock[];
  hunks: DiffHunk[];
  /** Lines only in the second text, and only in the first: the "+12 −5" of a file. */
  added: number;
  removed: number;
}

export function diffTexts(before: string, after: string, context = 3): TextDiff {
  return diffLineLists(splitLines(before), splitLines(after), context);
}

export function diffLineLists(aLines: readonly string[], bLines: readonly string[], context = 3): TextDiff {
  const { a, b, distinct } = internLines(aLines, bLines);
  const changedA = new Uint8Array(a.length);
  const changedB = new Uint8Array(b.length);
  histogramMark(a, b, distinct, changedA, changedB);
  slideMarks(a, changedA, changedB);
  slideMarks(b, changedB, changedA);
  const blocks = blocksFromMarks(changedA, changedB);
  let added = 0;
  let removed = 0;
  for (const block of blocks) {
    added += block.bEnd - block.bStart;
    removed += block.aEnd - block.aStart;
  }
  return { aLines: a.length, bLines: b.length, blocks, hunks: groupHunks(blocks, a.length, b.length, context), added, removed };
}
