import type { ChunkRef } from './chunkList.js';
import type { FileOutcome, FiledFile } from './fileIntoStore.js';
import type { CopyCancelledOutcome, CopyFailure } from './copyProtocol.js';

// A copy worker's answer for one batch, packed: numbers in one Float64Array and the filed files'
// strings in one string, instead of an object per file. Structured-cloned per file, the outcomes
// were the history process's main thread's largest source of garbage during a first copy (each
// file: an object, a hash and three stamp strings, then kept until the commit). Packed, a batch
// crosses as two values, and the main thread makes a file's strings only once, when it builds the
// rows. What is rare (a chunked file's chunks, why a file failed or could not be read) goes by the
// file's index in the batch.

/** Numbers per file in `numbers`: kind and flags, size, mode, stored bytes (-1: nothing placed). */
export const PACKED_FIELDS = 4;

const KINDS = ['filed', 'vanished', 'not-a-file', 'unreadable', 'failed', 'cancelled'] as const;
export type PackedKind = (typeof KINDS)[number];
const KIND_MASK = 7;
const CREATED = 8;
const REPAIRED = 16;

export type CopyOutcome = FileOutcome | CopyFailure | CopyCancelledOutcome;

export interface PackedDetail {
  /** The file's index in its batch. */
  at: number;
  chunks?: ChunkRef[];
  /** Why the file could not be read (unreadable). */
  reason?: string;
  failure?: { code: string; message: string };
}

export interface PackedOutcomes {
  numbers: Float64Array;
  /** Each filed file's hash, mtimeNs, ctimeNs and ino, in the batch's order, one space between each. */
  text: string;
  details: PackedDetail[];
  /** Files filed by each method (small, whole, clone, chunked). */
  methods: Record<string, number>;
}

/** Words of `text` per filed file. */
export const TEXT_WORDS = 4;

export function packOutcomes(outcomes: readonly CopyOutcome[]): PackedOutcomes {
  const numbers = new Float64Array(outcomes.length * PACKED_FIELDS);
  const words: string[] = [];
  const details: PackedDetail[] = [];
  const methods: Record<string, number> = {};
  outcomes.forEach((outcome, at) => {
    const base = at * PACKED_FIELDS;
    numbers[base] = KINDS.indexOf(outcome.kind);
    numbers[base + 3] = -1;
    if (outcome.kind === 'filed') {
      numbers[base] |= (outcome.created ? CREATED : 0) | (outcome.repaired ? REPAIRED : 0);
      numbers[base + 1] = outcome.size;
      numbers[base + 2] = outcome.mode;
      numbers[base + 3] = outcome.stored ?? -1;
      words.push(outcome.hash, outcome.mtimeNs, outcome.ctimeNs, outcome.ino);
      methods[outcome.method] = (methods[outcome.method] ?? 0) + 1;
      if (outcome.chunks) details.push({ at, chunks: outcome.chunks });
    } else if (outcome.kind === 'unreadable') {
      details.push({ at, reason: outcome.reason });
    } else if (outcome.kind === 'failed') {
      details.push({ at, failure: { code: outcome.code, message: outcome.message } });
    }
  });
  return { numbers, text: words.join(' '), details, methods };
}

/** One file of a packed batch, read without making its strings. */
export interface PackedFile {
  kind: PackedKind;
  repaired: boolean;
  size: number;
  mode: number;
  /** Bytes on disk of the blob this file placed; undefined when nothing was placed. */
  stored: number | undefined;
}

export function packedFile(packed: PackedOutcomes, at: number): PackedFile {
  const base = at * PACKED_FIELDS;
  const head = packed.numbers[base]!;
  const stored = packed.numbers[base + 3]!;
  return {
    kind: KINDS[head & KIND_MASK]!,
    repaired: (head & REPAIRED) !== 0,
    size: packed.numbers[base + 1]!,
    mode: packed.numbers[base + 2]!,
    stored: stored < 0 ? undefined : stored,
  };
}

/** The strings of a filed file, from a batch's words (`text` split on spaces) and its place among the filed. */
export function filedStrings(words: readonly string[], filedAt: number): Pick<FiledFile, 'hash' | 'mtimeNs' | 'ctimeNs' | 'ino'> {
  const base = filedAt * TEXT_WORDS;
  return { hash: words[base]!, mtimeNs: words[base + 1]!, ctimeNs: words[base + 2]!, ino: words[base + 3]! };
}
