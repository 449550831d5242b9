import type { ChunkRef } from './chunkList.js';
import type { FileOutcome } from './fileIntoStore.js';

// A copy worker's answer for one batch, packed: numbers in one Float64Array and the filed files'
// strings in one string, instead of an object per file. Structured-cloned per file, the outcomes
// were the history process's main thread's largest source of garbage during a first copy (each
// file: an object, a hash and three stamp strings, then kept until the commit). Packed, a batch
// crosses as two values, and the main thread makes a file's strings only once, when it builds the
// rows. What is rare (a chunked file's chunks, why a file failed or could not be read) goes by the
// file's index in the batch.

/** The file was not copied: its operation was cancelled first. */
export interface CopyCancelledOutcome {
  kind: 'cancelled';
}

export interface CopyFailure {
  kind: 'failed';
  code: string;
  message: string;
}

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

// A packed file is read field by field, so taking a batch makes no object per file.

export function packedKind(packed: PackedOutcomes, at: number): PackedKind {
  return KINDS[packed.numbers[at * PACKED_FIELDS]! & KIND_MASK]!;
}

export function packedRepaired(packed: PackedOutcomes, at: number): boolean {
  return (packed.numbers[at * PACKED_FIELDS]! & REPAIRED) !== 0;
}

export function packedSize(packed: PackedOutcomes, at: number): number {
  return packed.numbers[at * PACKED_FIELDS + 1]!;
}

export function packedMode(packed: PackedOutcomes, at: number): number {
  return packed.numbers[at * PACKED_FIELDS + 2]!;
}

/** Bytes on disk of the blob this file placed; -1 when nothing was placed. */
export function packedStored(packed: PackedOutcomes, at: number): number {
  return packed.numbers[at * PACKED_FIELDS + 3]!;
}
