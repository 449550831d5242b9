import { Change } from '@codemirror/merge';
import type { TextDiff } from '../../shared/diff/textDiff.js';
import { terminatorLength } from '../../shared/diff/splitLines.js';
import { diffTokens, type TokenChange } from '../../shared/diff/tokenDiff.js';
import { appendAll } from '../../shared/largeArrays.js';

// Our line diff handed to CodeMirror's merge views (their `diffConfig.override`), so the views
// show the blocks it found instead of diffing again with their own, character-level algorithm.
// Inside a changed block the words that changed are passed on, so they can be marked.
//
// The merge views tidy what they are given for display (they move a pure insertion or deletion
// that could also sit elsewhere, and widen changes to whole words). Every change passed here is
// shaped so that tidying leaves it where it is: line blocks are whole lines, an insertion or
// deletion of whole lines is passed as a replacement of the line break before it, and word
// changes that could be moved are replaced by their whole block.

/** Blocks with more lines than this on a side are marked as whole lines, without their words. */
const MAX_WORD_DIFF_LINES = 200;

/** Where each line starts in the text as the editor holds it (every line break one character). */
export function lineStarts(lines: readonly string[]): number[] {
  const starts = [0];
  let at = 0;
  for (const line of lines) {
    const terminator = terminatorLength(line);
    at += line.length - terminator + (terminator > 0 ? 1 : 0);
    starts.push(at);
  }
  return starts;
}

export function editorChanges(diff: TextDiff, aLines: readonly string[], bLines: readonly string[], a: string, b: string): Change[] {
  const startA = lineStarts(aLines);
  const startB = lineStarts(bLines);
  // The editor's text must be the one the lines came from; if not, let it compare on its own.
  if (startA.at(-1) !== a.length || startB.at(-1) !== b.length) return [];
  const changes: Change[] = [];
  for (const block of diff.blocks) {
    const fromA = startA[block.aStart]!;
    const toA = startA[block.aEnd]!;
    const fromB = startB[block.bStart]!;
    const toB = startB[block.bEnd]!;
    const words = block.aEnd > block.aStart && block.bEnd > block.bStart ? wordChanges(a, b, fromA, toA, fromB, toB, block) : null;
    if (words) appendAll(changes, words);
    else changes.push(wholeLines(a, b, fromA, toA, fromB, toB));
  }
  return changes;
}

/** A block as one change of whole lines. */
function wholeLines(a: string, b: string, fromA: number, toA: number, fromB: number, toB: number): Change {
  // Whole lines added (or removed) after a line: the line break before them is the change, so
  // the insertion cannot be moved into the middle of a neighbouring line.
  if (fromA === toA && fromA > 0) return new Change(fromA - 1, toA, fromB - 1, toB);
  if (fromB === toB && fromB > 0) return new Change(fromA - 1, toA, fromB - 1, toB);
  return fromA === toA || fromB === toB ? new Change(fromA, toA, fromB, toB) : trimmedReplacement(a, b, fromA, toA, fromB, toB);
}

function wordChanges(
  a: string,
  b: string,
  fromA: number,
  toA: number,
  fromB: number,
  toB: number,
  block: { aStart: number; aEnd: number; bStart: number; bEnd: number },
): Change[] | null {
  if (block.aEnd - block.aStart > MAX_WORD_DIFF_LINES || block.bEnd - block.bStart > MAX_WORD_DIFF_LINES) return null;
  const linesA = lineRanges(a, fromA, toA);
  const linesB = lineRanges(b, fromB, toB);
  const out: Change[] = [];
  let atA = fromA;
  let atB = fromB;
  // Lines with no counterpart, gathered until the next pair of alike lines.
  let runA = fromA;
  let runB = fromB;
  const flush = (): boolean => {
    if (runA === atA && runB === atB) return true;
    const change =
      atA > runA && atB > runB ? trimmedReplacement(a, b, runA, atA, runB, atB) : settled(a, b, 0, 0, { fromA: runA, toA: atA, fromB: runB, toB: atB });
    if (!change) return false;
    out.push(change);
    return true;
  };
  // Each line against the line it became, so a word never pairs with one on another line; lines
  // with no counterpart are replaced, added or removed whole.
  for (const [i, j] of pairLines(a, b, linesA, linesB)) {
    if (i === null || j === null) {
      if (i !== null) atA = linesA[i]![1];
      if (j !== null) atB = linesB[j]![1];
      continue;
    }
    if (!flush()) return null;
    const [pa, qa] = linesA[i]!;
    const [pb, qb] = linesB[j]!;
    const tokens = diffTokens(a.slice(pa, qa), b.slice(pb, qb));
    if (!tokens) return null;
    for (const token of tokens) {
      const change = settled(a, b, pa, pb, token);
      if (!change) return null;
      out.push(change);
    }
    atA = runA = qa;
    atB = runB = qb;
  }
  if (!flush()) return null;
  return out.length > 0 ? out : null;
}

/**
 * Whole lines replaced by whole lines, without the line break both end with: that break is not
 * a change, and leaving it out keeps the change apart from one after a one-character line.
 */
function trimmedReplacement(a: string, b: string, fromA: number, toA: number, fromB: number, toB: number): Change {
  const both = toA - fromA > 1 && toB - fromB > 1 && a[toA - 1] === '\n' && b[toB - 1] === '\n';
  return both ? new Change(fromA, toA - 1, fromB, toB - 1) : new Change(fromA, toA, fromB, toB);
}

/** [start, end) of each line in text[from, to), line breaks included. */
function lineRanges(text: string, from: number, to: number): [number, number][] {
  const out: [number, number][] = [];
  for (let at = from; at < to;) {
    const end = lineEnd(text, at, to);
    out.push([at, end]);
    at = end;
  }
  return out;
}

/** Above this many line pairs, the lines of a block are paired in order instead of by likeness. */
const MAX_PAIRING_CELLS = 4000;

/**
 * Which line of the block became which: the longest in-order pairing of lines that look alike
 * (more than half their words shared), so "f(a)" pairs with "f(b)" and not with the line added
 * next to it. Returns [i, j] in order; null on one side for a line added or removed whole.
 */
function pairLines(a: string, b: string, linesA: [number, number][], linesB: [number, number][]): [number | null, number | null][] {
  const n = linesA.length;
  const m = linesB.length;
  if (n * m > MAX_PAIRING_CELLS) {
    const out: [number | null, number | null][] = [];
    for (let k = 0; k < Math.max(n, m); k++) out.push([k < n ? k : null, k < m ? k : null]);
    return out;
  }
  const words = (text: string, [from, to]: [number, number]) => text.slice(from, to).match(/[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu) ?? [];
  const wa = linesA.map((r) => words(a, r));
  const wb = linesB.map((r) => words(b, r));
  const alike = (i: number, j: number) => likeness(wa[i]!, wb[j]!) > 0.5;
  // Longest common subsequence under "alike", by dynamic programming from the end.
  const best = Array.from({ length: n + 1 }, () => new Int32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      best[i]![j] = alike(i, j) ? best[i + 1]![j + 1]! + 1 : Math.max(best[i + 1]![j]!, best[i]![j + 1]!);
    }
  }
  const out: [number | null, number | null][] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && alike(i, j) && best[i]![j] === best[i + 1]![j + 1]! + 1) out.push([i++, j++]);
    else if (j < m && (i === n || best[i]![j + 1]! >= best[i + 1]![j]!)) out.push([null, j++]);
    else out.push([i++, null]);
  }
  return out;
}

/** The share of words two lines have in common (Dice's coefficient over the word multisets). */
function likeness(x: string[], y: string[]): number {
  if (x.length === 0 && y.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const w of x) counts.set(w, (counts.get(w) ?? 0) + 1);
  let common = 0;
  for (const w of y) {
    const c = counts.get(w) ?? 0;
    if (c > 0) {
      common++;
      counts.set(w, c - 1);
    }
  }
  return (2 * common) / (x.length + y.length);
}

/** The end of the line starting at `from` (just past its line break), at most `limit`. */
function lineEnd(text: string, from: number, limit: number): number {
  const end = text.indexOf('\n', from);
  return end < 0 || end >= limit ? limit : end + 1;
}

/**
 * A word change at its absolute place, turned so that tidying leaves it there, or null when it
 * cannot be (then its block is shown as whole lines).
 */
function settled(a: string, b: string, offA: number, offB: number, t: TokenChange): Change | null {
  let fromA = offA + t.fromA;
  let toA = offA + t.toA;
  let fromB = offB + t.fromB;
  let toB = offB + t.toB;
  const lenA = toA - fromA;
  const lenB = toB - fromB;
  if ((lenA > 0 && lenB > 0) || (lenA <= 3 && lenB <= 3)) return new Change(fromA, toA, fromB, toB);
  const [text, from, to] = lenA > 0 ? [a, fromA, toA] : [b, fromB, toB];
  const inserted = text.slice(from, to);
  if (!inserted.includes('\n')) return new Change(fromA, toA, fromB, toB);
  // Lines added after a line break: the same text read as starting with that break, which
  // tidying keeps in place.
  if (inserted.endsWith('\n') && from > 0 && text[from - 1] === '\n') {
    fromA--;
    toA--;
    fromB--;
    toB--;
    return new Change(fromA, toA, fromB, toB);
  }
  return inserted.startsWith('\n') ? new Change(fromA, toA, fromB, toB) : null;
}
