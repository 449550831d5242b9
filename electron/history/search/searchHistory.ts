import type { SearchResult } from '../../../shared/contract/values.js';
import { globMatcher } from '../../../shared/pathGlob.js';
import { compileQuery, type TextQuery } from '../../../shared/textSearch.js';
import type { SearchScope } from '../db/searchGroups.js';
import { count } from '../trace.js';
import { AnsweredHits } from './answeredHits.js';
import { BlobScans, type SearchSource } from './blobScans.js';
import { byteLiteralOf } from './byteLiteral.js';
import { requiredLiteral } from './regexLiteral.js';
import { UnreadableVersions } from './unreadableVersions.js';

// A search of every version ever recorded. The trigram index (db/searchIndex.ts) names the blobs
// that may hold the text when the query has 3 characters of plain text to look for; every other
// query, and the blobs the build has not reached yet, are read instead. The versions are grouped
// by file and content and sorted newest first by SQLite (db/searchGroups.ts); the search steps
// through the groups in that order, reads each one's blob (once per search however many files and
// versions name it: blobScans.ts; the index only narrows, the text itself decides: case, regex)
// and stops one hit past the limit, so it holds the hits it answers and never every match. The
// hits' versions and whether their files still hold the text are asked a batch of hits at a time
// (answeredHits.ts).
// Whether the build is complete is two counts (no scan of every blob), and only an incomplete one
// costs the query for the blobs it has not reached. It runs in its own worker thread
// (searchThread.ts, searchWorker.ts), from its own connection to history.db, so however long it
// takes the history process answers meanwhile. The versions whose blob could not be read are
// counted and named in the answer (unreadableVersions.ts): what was not looked at is said.

export interface SearchRequest extends TextQuery {
  /** A glob over project paths (shared/pathGlob.ts). */
  path?: string;
  since?: number;
  limit: number;
}

export function searchHistory(source: SearchSource, request: SearchRequest, maxSize: number): SearchResult {
  const pattern = compileQuery(request);
  const literal = request.regex ? requiredLiteral(request.query) : request.query;
  const indexed = literal !== null && [...literal].length >= 3;
  const { index } = source;
  const progress = index.searchProgress(maxSize);
  const done = progress.indexedBlobs >= progress.totalBlobs;

  let scope: SearchScope;
  if (!indexed) scope = { kind: 'everything', maxSize };
  else if (done) scope = { kind: 'indexed', literal, maxSize };
  else {
    count('search.unindexedQueries');
    scope = { kind: 'partlyIndexed', literal, maxSize };
  }
  const pathMatches = request.path ? globMatcher(request.path) : () => true;
  const scans = new BlobScans(source, pattern, byteLiteralOf(request));

  const hits = new AnsweredHits(source, scans, { since: request.since, maxSize, literal: indexed ? literal : undefined });
  const unreadable = new UnreadableVersions();
  const versionsOf = (path: string, hash: string) =>
    index.searchGroupVersions(path, hash, request.since).map(([versionId, snapshotId, at]) => ({ versionId, snapshotId, at }));
  let truncated = false;
  for (const [path, hash, lastSeen, , size, state] of index.searchGroups(scope, request.since)) {
    if (!pathMatches(path)) continue;
    const matches = scans.of(hash, size, state);
    if (matches === null && scans.unreadable(hash)) unreadable.add(path, versionsOf(path, hash));
    if (matches === null || matches.length === 0) continue;
    if (hits.count === request.limit) {
      truncated = true;
      break;
    }
    hits.add(path, hash, lastSeen, matches);
  }
  hits.flush();
  return { indexed, index: { ...progress, done }, results: hits.results, truncated, unreadable: unreadable.result() };
}
