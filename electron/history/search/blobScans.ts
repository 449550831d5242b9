import type { SearchMatch } from '../../../shared/contract/values.js';
import { previewOf, queryMatches, type QueryMatcher, type TextMatch } from '../../../shared/textSearch.js';
import type { BlobTextState } from '../db/searchIndex.js';
import { count, countMax } from '../trace.js';
import { readBlobBytes, readBlobText } from './blobText.js';
import { byteMatches, type ByteLiteral } from './byteLiteral.js';
import type { SearchReads } from '../db/searchReader.js';
import type { BlobStore } from '../store/blobStore.js';

// Each blob of one search read and scanned once however many files and versions name it. What is
// kept of a blob is its matches with their previews, never its text, and only for the last
// SCANS_HELD blobs: a search that reads a million candidates holds no more than that (a blob named
// again after that many others is read again). A plain ASCII query is matched on the bytes and
// decodes only the lines it finds (byteLiteral.ts); any other decodes the blob's text.

/** Matches listed per hit at most: enough to see where, without a line per occurrence of "the". */
export const MAX_MATCHES = 100;

/** Blobs whose outcome a search keeps at once. */
export const SCANS_HELD = 1000;

/** A blob's matches, or null: no text to search (binary, not UTF-8, unreadable). */
export type BlobMatches = SearchMatch[] | null;

/** What a search reads (searchHistory.ts): the history's rows and the blobs' folder. */
export interface SearchSource {
  index: SearchReads;
  blobs: BlobStore;
}

export class BlobScans {
  readonly #scans = new Map<string, BlobMatches>();
  /**
   * The blobs found to hold the text, kept for the whole search: each one is a hit, or a latest
   * version asked about for a hit (answeredHits.ts), so they are at most twice the limit. A
   * file's latest version read early in a long answer is known to hold the text when its older
   * versions come up, after its matches were forgotten.
   */
  readonly #holding = new Set<string>();
  /** The blobs found missing or damaged in this search (few: a healthy store has none). */
  readonly #unreadable = new Set<string>();

  constructor(
    private readonly source: SearchSource,
    private readonly pattern: QueryMatcher,
    /** The query as bytes to look for, when it is plain ASCII (byteLiteral.ts): no blob decoded whole. */
    private readonly bytes: ByteLiteral | null = null,
  ) {}

  /**
   * The blob's matches; `state` is what the index build found it to be (null: not looked at yet).
   * One the build could not read is read again: it may have been brought back since.
   */
  of(hash: string, size: number, state: BlobTextState | null): BlobMatches {
    const known = this.#scans.get(hash);
    if (known !== undefined) return known;
    const matches = state === null || state === 'text' || state === 'unreadable' ? this.#scan(hash, size) : null;
    this.#keep(hash, matches);
    return matches;
  }

  /** Whether the blob could not be read (missing or damaged) when this search read it. */
  unreadable(hash: string): boolean {
    return this.#unreadable.has(hash);
  }

  /** Whether the blob holds the text, as far as this search knows without reading it again (undefined: not known). */
  holds(hash: string): boolean | undefined {
    if (this.#holding.has(hash)) return true;
    const known = this.#scans.get(hash);
    return known === undefined ? undefined : known !== null && known.length > 0;
  }

  #scan(hash: string, size: number): BlobMatches {
    if (this.bytes) return this.#scanBytes(hash, size, this.bytes);
    const read = readBlobText(this.source.blobs, hash, size);
    count('search.blobReads');
    if (read.state === 'unreadable') this.#unreadable.add(hash);
    if (read.state !== 'text') return null;
    count('search.blobScans');
    count('search.textsDecoded');
    const { text } = read;
    return queryMatches(text, this.pattern, MAX_MATCHES).map((m) => shown(text, m));
  }

  /** A plain ASCII query: matched on the bytes, only the lines holding a match decoded (byteLiteral.ts). */
  #scanBytes(hash: string, size: number, literal: ByteLiteral): BlobMatches {
    const bytes = readBlobBytes(this.source.blobs, hash, size);
    count('search.blobReads');
    if (bytes === null) {
      this.#unreadable.add(hash);
      return null;
    }
    const found = byteMatches(bytes, literal, MAX_MATCHES);
    if (found === null) return null;
    count('search.blobScans');
    return found.map(({ match, lineText }) => shown(lineText, match));
  }

  /** Keeps the outcome, forgetting the oldest once SCANS_HELD are kept (a Map iterates in insertion order). */
  #keep(hash: string, matches: BlobMatches): void {
    if (this.#scans.size >= SCANS_HELD) this.#scans.delete(this.#scans.keys().next().value!);
    this.#scans.set(hash, matches);
    if (matches !== null && matches.length > 0) this.#holding.add(hash);
    countMax('search.scansHeld', this.#scans.size);
  }
}

/** A match as the answer lists it: where, and its line's preview (`text` holds the line whole). */
function shown(text: string, m: TextMatch): SearchMatch {
  const { preview, from, to } = previewOf(text, m);
  return { line: m.line, column: m.column, length: m.length, preview: ownCopy(preview), previewFrom: from, previewTo: to };
}

/**
 * The string in memory of its own: V8 keeps a slice of a long string as a view of it, so a kept
 * preview would keep its whole blob's text alive. UTF-16 both ways keeps every code unit, lone
 * surrogates of a line cut short included.
 */
function ownCopy(text: string): string {
  return Buffer.from(text, 'utf16le').toString('utf16le');
}
