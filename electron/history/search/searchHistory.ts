import type { SearchHit, SearchMatch, SearchResult } from '../../../shared/contract/values.js';
import { globMatcher } from '../../../shared/pathGlob.js';
import { compileQuery, previewOf, queryMatches, type QueryMatcher, type TextMatch, type TextQuery } from '../../../shared/textSearch.js';
import type { VersionInfo } from '../../../shared/history.js';
import type { BlobTextState, SearchVersionRow } from '../db/historyIndex.js';
import type { SearchReads } from '../db/searchReader.js';
import { count } from '../trace.js';
import { readBlobText } from './blobText.js';
import { requiredLiteral } from './regexLiteral.js';

// A search of every version ever recorded. The trigram index (db/searchIndex.ts) names the blobs
// that may hold the text when the query has 3 characters of plain text to look for, with their
// file versions, in one statement; every other query, and the blobs the build has not reached yet,
// are read instead. The candidates are then grouped by file and content, newest first, and each
// blob is read and scanned for its lines once per search however many files and versions name it
// (the index only narrows, the text itself decides: case, regex). Whether the build is complete is
// two counts (no scan of every blob), and only an incomplete one costs the query for the blobs it
// has not reached. It runs in its own worker thread (searchThread.ts, searchWorker.ts), from its
// own connection to history.db, so however long it takes the history process answers meanwhile.

export interface SearchRequest extends TextQuery {
  /** A glob over project paths (shared/pathGlob.ts). */
  path?: string;
  since?: number;
  limit: number;
}

/** Matches listed per hit at most: enough to see where, without a line per occurrence of "the". */
export const MAX_MATCHES = 100;

/** What a search reads: the history's rows and the blobs' folder. */
export interface SearchSource {
  index: SearchReads;
  blobsDir: string;
}

interface Group {
  path: string;
  hash: string;
  versions: SearchVersionRow[];
  lastSeen: number;
}

export function searchHistory(store: SearchSource, request: SearchRequest, maxSize: number): SearchResult {
  const pattern = compileQuery(request);
  const literal = request.regex ? requiredLiteral(request.query) : request.query;
  const indexed = literal !== null && [...literal].length >= 3;
  const { index } = store;
  const progress = index.searchProgress(maxSize);
  const done = progress.indexedBlobs >= progress.totalBlobs;

  // Rows are grouped as SQLite steps through them, never gathered in one array first.
  let rows: Iterable<SearchVersionRow>;
  // The blobs the index named: any other blob it has looked at cannot hold the text.
  let named: Set<string> | undefined;
  if (indexed) {
    named = new Set<string>();
    rows = noteBlobs(index.candidateVersions(literal), named);
    if (!done) {
      count('search.unindexedQueries');
      rows = followedBy(rows, () => index.unindexedVersions(maxSize));
    }
  } else rows = index.fileVersionsWithin(maxSize);
  const groups = groupRows(rows, request);
  const scans = new BlobScans(store, pattern);

  const results: SearchHit[] = [];
  let truncated = false;
  for (const group of groups) {
    const newest = group.versions[0]!;
    const scan = scans.of(group.hash, newest[5], newest[6]);
    if (scan === null || scan.found.length === 0) continue;
    if (results.length === request.limit) {
      truncated = true;
      break;
    }
    results.push({
      path: group.path,
      versions: group.versions.map(([versionId, snapshotId, , , at]) => ({ versionId, snapshotId, at })),
      firstSeen: group.versions[group.versions.length - 1]![4],
      lastSeen: group.lastSeen,
      stillPresent: scans.stillPresent(group, maxSize, named),
      matches: scans.matchesOf(group.hash, scan),
    });
  }
  return { indexed, index: { ...progress, done }, results, truncated };
}

interface Scan {
  text: string;
  found: TextMatch[];
}

/**
 * Each blob of one search read and scanned at most once (null: no text to search: binary, not
 * UTF-8, unreadable), its matches' previews made once, and each path's latest version asked once.
 */
class BlobScans {
  readonly #scans = new Map<string, Scan | null>();
  readonly #matches = new Map<string, SearchMatch[]>();
  readonly #latest = new Map<string, VersionInfo | undefined>();

  constructor(
    private readonly store: SearchSource,
    private readonly pattern: QueryMatcher,
  ) {}

  /** The blob's matches; `state` is what the index build found it to be (null: not looked at yet). */
  of(hash: string, size: number, state: BlobTextState | null): Scan | null {
    const known = this.#scans.get(hash);
    if (known !== undefined) return known;
    let scan: Scan | null = null;
    if (state === null || state === 'text') {
      const read = readBlobText(this.store.blobsDir, hash, size);
      count('search.blobReads');
      if (read.state === 'text') {
        count('search.blobScans');
        scan = { text: read.text, found: queryMatches(read.text, this.pattern, MAX_MATCHES) };
      }
    }
    this.#scans.set(hash, scan);
    return scan;
  }

  matchesOf(hash: string, scan: Scan): SearchMatch[] {
    let matches = this.#matches.get(hash);
    if (!matches) this.#matches.set(hash, (matches = scan.found.map((m) => ({ line: m.line, column: m.column, preview: previewOf(scan.text, m) }))));
    return matches;
  }

  /**
   * Whether the file's latest version still holds the text: false when it was deleted or the text
   * is gone from it. A latest blob the index has looked at and did not name (`named`, for an
   * indexed search) cannot hold it, and is not read.
   */
  stillPresent(group: Group, maxSize: number, named: Set<string> | undefined): boolean {
    if (!this.#latest.has(group.path)) this.#latest.set(group.path, this.store.index.latestVersion(group.path));
    const latest = this.#latest.get(group.path);
    if (!latest || latest.hash === null || latest.type !== 'file') return false;
    if (latest.hash === group.hash) return true;
    if (latest.size > maxSize) return false;
    let state: BlobTextState | null | undefined;
    if (!this.#scans.has(latest.hash)) {
      state = this.store.index.blobTextState(latest.hash) ?? null;
      if (state !== null && state !== 'text') return false;
      if (state === 'text' && named && !named.has(latest.hash)) return false;
    }
    const scan = this.of(latest.hash, latest.size, state ?? null);
    return scan !== null && scan.found.length > 0;
  }
}

/** The rows as they come, each one's blob noted in `named`. */
function* noteBlobs(rows: Iterable<SearchVersionRow>, named: Set<string>): Generator<SearchVersionRow> {
  for (const row of rows) {
    named.add(row[3]);
    yield row;
  }
}

/** The rows, then those of a second read, started only when the first is done (one statement steps at a time). */
function* followedBy(rows: Iterable<SearchVersionRow>, then: () => Iterable<SearchVersionRow>): Generator<SearchVersionRow> {
  yield* rows;
  yield* then();
}

/** One group per file and content, the path and time filters applied, newest first; versions newest first. */
function groupRows(rows: Iterable<SearchVersionRow>, request: SearchRequest): Group[] {
  const pathMatches = request.path ? globMatcher(request.path) : undefined;
  const groups = new Map<string, Group>();
  for (const row of rows) {
    const [, , path, hash, at] = row;
    if (request.since !== undefined && at < request.since) continue;
    if (pathMatches && !pathMatches(path)) continue;
    const key = `${hash}\0${path}`;
    const group = groups.get(key);
    if (group) {
      group.versions.push(row);
      if (at > group.lastSeen) group.lastSeen = at;
    } else groups.set(key, { path, hash, versions: [row], lastSeen: at });
  }
  const out = [...groups.values()];
  for (const group of out) group.versions.sort((a, b) => b[1] - a[1]);
  // Newest first; among equals the latest snapshot, then by path, so the order is stable.
  return out.sort((a, b) => b.lastSeen - a.lastSeen || b.versions[0]![1] - a.versions[0]![1] || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
