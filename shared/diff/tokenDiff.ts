import { slideMarks } from './diffBlocks.js';
import { myersMark } from './myersDiff.js';

// Within a block of changed lines, which words changed: both sides cut into words, runs of
// spaces and single other characters, diffed with Myers, and the changed runs returned as
// character ranges. The viewer marks those ranges more strongly than the rest of the changed
// lines, so "count + 1" -> "count + step" shows "1" and "step", not two whole lines.

export interface TokenChange {
  /** [fromA, toA) of the first text and [fromB, toB) of the second (character offsets). */
  fromA: number;
  toA: number;
  fromB: number;
  toB: number;
}

/** Above this many tokens on a side, the block is shown as whole changed lines only. */
export const MAX_TOKENS = 4000;

const TOKEN = /[\p{L}\p{N}_]+|[^\S\n]+|\n|[^]/gu;

function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

/** The changed ranges between two texts, or null when they are too long to compare word by word. */
export function diffTokens(a: string, b: string): TokenChange[] | null {
  const ta = tokenize(a);
  const tb = tokenize(b);
  if (ta.length > MAX_TOKENS || tb.length > MAX_TOKENS) return null;
  const ids = new Map<string, number>();
  const intern = (tokens: string[]) => Int32Array.from(tokens, (t) => ids.get(t) ?? (ids.set(t, ids.size), ids.size - 1));
  const ia = intern(ta);
  const ib = intern(tb);
  const changedA = new Uint8Array(ia.length);
  const changedB = new Uint8Array(ib.length);
  myersMark(ia, ib, { aLo: 0, aHi: ia.length, bLo: 0, bHi: ib.length }, changedA, changedB);
  // Slid as lines are, so "x?: number" + "; y?: number" marks the words added, not a rotation of them.
  slideMarks(ia, changedA, changedB);
  slideMarks(ib, changedB, changedA);
  const out: TokenChange[] = [];
  let i = 0;
  let j = 0;
  let offA = 0;
  let offB = 0;
  while (i < ta.length || j < tb.length) {
    if (i < ta.length && j < tb.length && !changedA[i] && !changedB[j]) {
      offA += ta[i++]!.length;
      offB += tb[j++]!.length;
      continue;
    }
    const fromA = offA;
    const fromB = offB;
    while (i < ta.length && changedA[i]) offA += ta[i++]!.length;
    while (j < tb.length && changedB[j]) offB += tb[j++]!.length;
    out.push({ fromA, toA: offA, fromB, toB: offB });
  }
  return out;
}
