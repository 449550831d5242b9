import type { SearchHit, SearchMatch, SearchResult } from '../../../shared/contract/values.js';
import { HindsightError } from '../../../shared/errors.js';
import { globMatcher } from '../../../shared/pathGlob.js';
import { findMatches, previewOf, queryPattern, type TextQuery } from '../../../shared/textSearch.js';
import type { SearchVersionRow } from '../db/historyIndex.js';
import type { ProjectStore } from '../project/projectStore.js';
import { readBlobText } from './blobText.js';
import { requiredLiteral } from './regexLiteral.js';

// A search of every version ever recorded. The trigram index (db/searchIndex.ts) names the blobs
// that may hold the text when the query has 3 characters of plain text to look for; every other
// query, and the blobs the build has not reached yet, are read instead. The candidates are then
// grouped by file and content, newest first, and each is read to find its lines: the index only
// narrows, the text itself decides (case, regex). One blob is read once per search however many
// files and versions name it.

export interface SearchRequest extends TextQuery {
  /** A glob over project paths (shared/pathGlob.ts). */
  path?: string;
  since?: number;
  limit: number;
}

/** Matches listed per hit at most: enough to see where, without a line per occurrence of "the". */
export const MAX_MATCHES = 100;
/** Blob reads between two turns of the event loop, so a long scan never holds up other calls. */
const READS_PER_TURN = 64;

interface Group {
  path: string;
  hash: string;
  versions: SearchVersionRow[];
  lastSeen: number;
}

export async function searchHistory(store: ProjectStore, request: SearchRequest, maxSize: number): Promise<SearchResult> {
  const pattern = compile(request);
  const literal = request.regex ? requiredLiteral(request.query) : request.query;
  const indexed = literal !== null && [...literal].length >= 3;
  const { index } = store;
  const progress = index.searchProgress(maxSize);

  const rows = indexed ? candidatesFromIndex(store, literal, maxSize) : index.fileVersionsWithin(maxSize);
  const groups = groupRows(rows, request);

  const texts = new Map<string, string | null>();
  let reads = 0;
  const textOf = async (hash: string, size: number): Promise<string | null> => {
    let text = texts.get(hash);
    if (text !== undefined) return text;
    const state = index.blobTextState(hash);
    if (state && state !== 'text') text = null;
    else {
      const read = readBlobText(store.blobsDir, hash, size);
      text = read.state === 'text' ? read.text : null;
      if (++reads % READS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    texts.set(hash, text);
    return text;
  };

  const results: SearchHit[] = [];
  let truncated = false;
  for (const group of groups) {
    const newest = group.versions[0]!;
    const text = await textOf(group.hash, newest[5]);
    if (text === null) continue;
    const found = findMatches(text, pattern, MAX_MATCHES);
    if (found.length === 0) continue;
    if (results.length === request.limit) {
      truncated = true;
      break;
    }
    const matches: SearchMatch[] = found.map((m) => ({ line: m.line, column: m.column, preview: previewOf(text, m) }));
    results.push({
      path: group.path,
      versions: group.versions.map(([versionId, snapshotId, , , at]) => ({ versionId, snapshotId, at })),
      firstSeen: group.versions[group.versions.length - 1]![4],
      lastSeen: group.lastSeen,
      stillPresent: await stillPresent(store, group, pattern, maxSize, textOf),
      matches,
    });
  }
  return { indexed, index: { ...progress, done: progress.indexedBlobs >= progress.totalBlobs }, results, truncated };
}

function compile(request: SearchRequest): RegExp {
  try {
    return queryPattern(request);
  } catch (error) {
    throw new HindsightError('BAD_REQUEST', `The regular expression is not valid: ${(error as Error).message}`, { query: request.query });
  }
}

/** The file versions naming a blob the index says holds the text, or one it has not reached yet. */
function candidatesFromIndex(store: ProjectStore, literal: string, maxSize: number): SearchVersionRow[] {
  const { index } = store;
  const hashes = new Set(index.blobsContaining(literal));
  for (const hash of index.blobsNotIndexed(maxSize)) hashes.add(hash);
  const rows: SearchVersionRow[] = [];
  for (const hash of hashes) for (const row of index.fileVersionsOfBlob(hash)) rows.push(row);
  return rows;
}

/** One group per file and content, the path and time filters applied, newest first; versions newest first. */
function groupRows(rows: readonly SearchVersionRow[], request: SearchRequest): Group[] {
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

/** Whether the file's latest version still holds the text: false when it was deleted or the text is gone from it. */
async function stillPresent(
  store: ProjectStore,
  group: Group,
  pattern: RegExp,
  maxSize: number,
  textOf: (hash: string, size: number) => Promise<string | null>,
): Promise<boolean> {
  const latest = store.index.latestVersion(group.path);
  if (!latest || latest.hash === null || latest.type !== 'file') return false;
  if (latest.hash === group.hash) return true;
  if (latest.size > maxSize) return false;
  const text = await textOf(latest.hash, latest.size);
  return text !== null && findMatches(text, pattern, 1).length > 0;
}
