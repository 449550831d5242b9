import type { DiffBlock } from './diffBlocks.js';

// A range of lines followed back through one diff, as `git log -L` follows it: the blocks of the
// diff that touch the range are this version's change to it; the range in the version before is
// the rest of the range shifted by what was added or removed above it, joined with the lines
// those touching blocks replaced. A block touches the range when the lines it added overlap it, or,
// for a block that only removed lines, when it removed them strictly inside the range (a removal
// at its first or last edge is outside it).

/** Lines [start, end) of one version, counted from 0. */
export interface LineSpan {
  start: number;
  end: number;
}

export interface RangeStep {
  /** The blocks (older version a, newer b) that touch the range: this version changed it. */
  touched: DiffBlock[];
  /** The range in the older version; null when none of its lines were there (all added here). */
  before: LineSpan | null;
}

/** Follows `range` of the newer text back through `blocks` (from diffTexts(older, newer)). */
export function rangeBefore(blocks: readonly DiffBlock[], range: LineSpan): RangeStep {
  const touched = blocks.filter((block) => !(block.bEnd <= range.start || range.end <= block.bStart));
  const spans: LineSpan[] = [];
  for (const block of touched) if (block.aEnd > block.aStart) spans.push({ start: block.aStart, end: block.aEnd });
  for (const piece of untouchedPieces(range, touched)) {
    const shift = shiftAt(blocks, piece.start);
    spans.push({ start: piece.start + shift, end: piece.end + shift });
  }
  if (spans.length === 0) return { touched, before: null };
  // The pieces and the replaced lines meet end to end, so the range stays one range.
  let start = spans[0]!.start;
  let end = spans[0]!.end;
  for (const span of spans) {
    start = Math.min(start, span.start);
    end = Math.max(end, span.end);
  }
  return { touched, before: { start, end } };
}

/** The range less the newer-side lines of the touching blocks. */
function untouchedPieces(range: LineSpan, touched: readonly DiffBlock[]): LineSpan[] {
  const pieces: LineSpan[] = [];
  let start = range.start;
  for (const block of touched) {
    if (block.bStart > start) pieces.push({ start, end: Math.min(block.bStart, range.end) });
    start = Math.max(start, block.bEnd);
  }
  if (start < range.end) pieces.push({ start, end: range.end });
  return pieces;
}

/** Lines removed less lines added by the blocks that start at or above a newer-side line. */
function shiftAt(blocks: readonly DiffBlock[], line: number): number {
  let shift = 0;
  for (const block of blocks) {
    if (block.bStart > line) break;
    shift += block.aEnd - block.aStart - (block.bEnd - block.bStart);
  }
  return shift;
}
